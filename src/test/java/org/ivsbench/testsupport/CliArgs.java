package org.ivsbench.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Command lines for the CLI that many tests share, whether they run it in this JVM or as the jar. */
public final class CliArgs {
    private CliArgs() {}

    /** {@code -b ycsbivs -c CONFIG --create --load --execute -d RESULTS}, then {@code more}. */
    public static String[] createLoadExecute(Path config, Path results, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "-b", "ycsbivs", "-c", config.toString(), "--create", "--load", "--execute", "-d", results.toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }
}
