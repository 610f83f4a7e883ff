package org.ivsbench.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The connection part of the root element: type, driver, url, credentials, isolation, targetOptions. */
final class TargetSection {
    static final List<String> ELEMENTS = List.of(
            "type",
            "driver",
            "url",
            "username",
            "password",
            "passwordEnv",
            "passwordFile",
            "isolation",
            "reconnectOnConnectionFailure",
            "targetOptions");

    private static final List<String> PASSWORD_SOURCES = List.of("password", "passwordEnv", "passwordFile");

    private TargetSection() {}

    /**
     * The section as written; {@code check} then validates type, url, driver and isolation against the
     * database kinds and fills their defaults.
     */
    static TargetConfig parse(Element root, Path configDir, Function<String, String> environment, TargetCheck check)
            throws ConfigException {
        String type = root.leaf("type");
        String url = root.leaf("url");
        String driver = root.leaf("driver");
        String username = root.leaf("username");
        String password = password(root, configDir, environment);
        String isolation = root.leaf("isolation");
        boolean reconnect = root.bool("reconnectOnConnectionFailure", false);
        Map<String, String> options = options(root);
        return check.check(new TargetConfig(type, driver, url, username, password, isolation, reconnect, options));
    }

    /**
     * At most one of the three sources: two would leave the user guessing which one was used. The env and file
     * forms keep the secret out of the config, its copy in the results and the process list.
     */
    private static String password(Element root, Path configDir, Function<String, String> environment)
            throws ConfigException {
        List<String> given = new ArrayList<>();
        for (String source : PASSWORD_SOURCES) {
            if (root.single(source) != null) {
                given.add(source);
            }
        }
        if (given.size() > 1) {
            throw new ConfigException(
                    given.get(1),
                    "give only one of password, passwordEnv and passwordFile (found: " + String.join(", ", given)
                            + ")");
        }
        String plain = root.leaf("password");
        if (plain != null) {
            return plain;
        }
        String variable = root.leaf("passwordEnv");
        if (variable != null) {
            if (variable.isBlank()) {
                throw new ConfigException("passwordEnv", "is empty (name an environment variable)");
            }
            String value = environment.apply(variable);
            if (value == null) {
                throw new ConfigException("passwordEnv", "environment variable '" + variable + "' is not set");
            }
            return value;
        }
        String file = root.leaf("passwordFile");
        if (file != null) {
            return SecretFile.firstLine("passwordFile", file, configDir, "password");
        }
        return null;
    }

    private static Map<String, String> options(Element root) throws ConfigException {
        Element section = root.single("targetOptions");
        Map<String, String> options = new LinkedHashMap<>();
        if (section == null) {
            return options;
        }
        section.requireContainer();
        for (Element option : section.children()) {
            if (options.containsKey(option.name())) {
                throw new ConfigException(option.path(), "given more than once; give it once");
            }
            options.put(option.name(), option.text());
        }
        return options;
    }
}
