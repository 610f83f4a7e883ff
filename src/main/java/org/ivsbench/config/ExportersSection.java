package org.ivsbench.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** {@code monitor/exporters}: the Prometheus exporters the monitor reads instead of /proc and the target. */
final class ExportersSection {
    private static final List<String> ELEMENTS =
            List.of("node", "process", "mysqld", "postgres", "user", "passwordFile");

    private ExportersSection() {}

    /** Null when the monitor has no {@code exporters} element. */
    static ExportersConfig parse(Element monitor, Path configDir) throws ConfigException {
        Element section = monitor.single("exporters");
        if (section == null) {
            return null;
        }
        section.requireSection(ELEMENTS);
        String node = url(section, "node");
        String process = url(section, "process");
        String mysqld = url(section, "mysqld");
        String postgres = url(section, "postgres");
        if (mysqld != null && postgres != null) {
            throw new ConfigException(
                    section.childPath("postgres"), "'" + postgres + "' beside mysqld: name one database exporter");
        }
        if (node == null && process == null && mysqld == null && postgres == null) {
            throw new ConfigException(
                    section.path(), "names no exporter (give node, process, mysqld or postgres, or leave it out)");
        }
        String user = section.leaf("user");
        if (user != null && (user.isBlank() || user.contains(":"))) {
            throw new ConfigException(section.childPath("user"), "'" + user + "' is not a basic-auth user name");
        }
        String passwordFile = section.leaf("passwordFile");
        String password = null;
        if (passwordFile != null) {
            if (user == null) {
                throw new ConfigException(
                        section.childPath("passwordFile"), "'" + passwordFile + "' without exporters/user");
            }
            password = SecretFile.firstLine(
                    section.childPath("passwordFile"), passwordFile, configDir, "exporters' basic-auth password");
        } else if (user != null) {
            throw new ConfigException(
                    section.childPath("user"), "'" + user + "' without exporters/passwordFile (the password's file)");
        }
        return new ExportersConfig(node, process, mysqld, postgres, user, password);
    }

    /** An http(s) URL with a host and no user info (the password goes in passwordFile, not in a URL). */
    static String url(Element section, String name) throws ConfigException {
        String text = section.leaf(name);
        if (text == null) {
            return null;
        }
        String path = section.childPath(name);
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new ConfigException(path, "'" + text + "' is not a URL (e.g. http://dbhost:9100/metrics)");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ConfigException(
                    path, "'" + text + "' is not an http or https URL (e.g. http://dbhost:9100/metrics)");
        }
        if (uri.getRawUserInfo() != null) {
            throw new ConfigException(
                    path, "holds a user name or password: give them as exporters/user and passwordFile");
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw new ConfigException(path, "'" + text + "' has no host");
        }
        if (uri.getPort() == 0 || uri.getPort() > 65535) {
            throw new ConfigException(path, "'" + text + "' has port " + uri.getPort() + ", outside 1..65535");
        }
        return text;
    }
}
