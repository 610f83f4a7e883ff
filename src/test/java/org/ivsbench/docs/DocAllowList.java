package org.ivsbench.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one list of documented commands the doc test does not run, with the reason for each: the table under
 * the heading {@value #HEADING} in docs/trust.md, read from there so that the page a reader sees is the list
 * the test uses. An entry is a command prefix (whole words): {@code docker } covers every docker command.
 */
final class DocAllowList {
    static final String HEADING = "### Not run: the allow-list";
    private static final Pattern ROW = Pattern.compile("^\\|\\s*`([^`]+)`\\s*\\|\\s*(.+?)\\s*\\|\\s*$");

    private final Map<String, String> reasons;

    private DocAllowList(Map<String, String> reasons) {
        this.reasons = reasons;
    }

    static DocAllowList read(Path trustPage) throws IOException {
        return parse(Files.readAllLines(trustPage));
    }

    static DocAllowList parse(List<String> lines) {
        Map<String, String> reasons = new LinkedHashMap<>();
        int i = lines.indexOf(HEADING);
        if (i < 0) {
            throw new IllegalStateException("docs/trust.md has no heading '" + HEADING + "'");
        }
        for (i++; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
            Matcher m = ROW.matcher(lines.get(i));
            if (m.find()) {
                reasons.put(m.group(1).strip(), m.group(2));
            }
        }
        return new DocAllowList(reasons);
    }

    Map<String, String> entries() {
        return reasons;
    }

    /** The entry covering a documented command, if any. */
    Optional<String> entryFor(String command) {
        return reasons.keySet().stream()
                .filter(prefix -> command.startsWith(prefix)
                        && (command.length() == prefix.length()
                                || " ;&|".indexOf(command.charAt(prefix.length())) >= 0))
                .findFirst();
    }

    String reason(String entry) {
        return reasons.get(entry);
    }
}
