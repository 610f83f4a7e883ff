package org.ivsbench.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs one of our server scripts ({@code scripts/mariadb.sh}, {@code scripts/postgres.sh}, {@code scripts/cassandra.sh})
 * from the project root, the test JVM's working directory, with environment variables that pick the instance (its
 * state folder, its first port). A crash test's own server instance is started, killed, restarted and removed
 * through it, so it runs exactly as the suite's shared servers do.
 */
final class ServerScript {
    private static final Pattern EXPORT = Pattern.compile("^export ([A-Z_]+)=(.*)$");

    private final String script;
    private final Map<String, String> env;

    ServerScript(String script, Map<String, String> env) {
        this.script = script;
        this.env = Map.copyOf(env);
    }

    /**
     * A state folder of its own for an instance of a test, under the project's .cache (beside the suite's servers, so
     * the scripts' pristine data directories are shared and the server's own system user can enter it), named after
     * the test and this JVM so that two checkouts' or two runs' instances never meet. It must not exist yet.
     */
    static Path ownStateDir(String name) throws IOException {
        Path dir = Path.of(
                        ".cache", "test-" + name + "-" + ProcessHandle.current().pid())
                .toAbsolutePath();
        deleteTree(dir); // a leftover of a JVM with the same pid, long gone
        Files.createDirectories(dir.getParent());
        return dir;
    }

    /** Runs {@code scripts/<script>.sh <command>}; returns its stdout, fails with its whole output otherwise. */
    String run(String command, int seconds) throws IOException, InterruptedException {
        Path out = Files.createTempFile("ivs-" + script + "-" + command, ".out");
        Path err = Files.createTempFile("ivs-" + script + "-" + command, ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder("scripts/" + script + ".sh", command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .redirectInput(
                            ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            pb.environment().putAll(env);
            Process p = pb.start();
            boolean done = p.waitFor(seconds, TimeUnit.SECONDS);
            if (!done) {
                p.destroyForcibly();
            }
            if (!done || p.exitValue() != 0) {
                throw new IllegalStateException("scripts/" + script + ".sh " + command + " "
                        + (done ? "exited " + p.exitValue() : "did not finish within " + seconds + " s") + " (" + env
                        + "):\n" + Files.readString(out, StandardCharsets.UTF_8)
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /**
     * The {@code export NAME=value} lines a script's start or env prints. The scripts quote with printf %q: a value
     * of URL and path characters comes with a backslash before each special one (a URL's {@code ?}), undone here.
     */
    static Map<String, String> exports(String output) {
        Map<String, String> vars = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            Matcher m = EXPORT.matcher(line.strip());
            if (m.matches()) {
                String value = m.group(2);
                if (value.startsWith("'") || value.startsWith("$'") || value.startsWith("\"")) {
                    throw new IllegalStateException("a quoted value the tests do not unquote: " + line);
                }
                vars.put(m.group(1), value.replaceAll("\\\\(.)", "$1"));
            }
        }
        return vars;
    }

    /**
     * Starts an instance in its own state folder and returns the exports of the start; when the start or what follows
     * fails, stops whatever it left running and deletes the folder, then rethrows.
     */
    Map<String, String> startOwn(Path state, int seconds, String... required) throws IOException, InterruptedException {
        try {
            Map<String, String> vars = exports(run("start", seconds));
            for (String name : required) {
                require(vars, name);
            }
            return vars;
        } catch (IOException | InterruptedException | RuntimeException e) {
            try {
                run("stop", 90);
                deleteTree(state);
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    static String require(Map<String, String> vars, String name) {
        String value = vars.get(name);
        if (value == null) {
            throw new IllegalStateException("no " + name + " in the script's exports: " + vars);
        }
        return value;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
