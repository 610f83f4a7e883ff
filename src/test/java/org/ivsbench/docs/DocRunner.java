package org.ivsbench.docs;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs documented command lines with bash from the project root, one process per step, the way a reader types
 * them one after the other: variables a step exports (IVS_*, e.g. from {@code eval "$(scripts/mariadb.sh
 * start)"}) are seen by the next steps; a step ending in {@code &} runs in the background until a {@code wait}
 * step. Before a step runs, {@link DocFixtures} fills its placeholders and moves its outputs into
 * {@code target/doc-commands/} (see there). stdin is /dev/null; each step has a time bound, after which it and
 * everything it started are killed.
 */
final class DocRunner {
    /** What a step did: the command as run, its exit code (-1 when it timed out) and the end of its output. */
    record Result(String command, int code, String tail, Path log) {
        boolean ok() {
            return code == 0;
        }

        String describe() {
            return (code < 0 ? "timed out" : "exit " + code) + ": " + command + "\n--- last output lines (" + log
                    + ") ---\n" + tail;
        }
    }

    private static final Pattern RESULTS_FOLDER =
            Pattern.compile(Pattern.quote(DocFixtures.RESULTS) + "([A-Za-z0-9_.-]+)");

    private final Path root;
    private final DocFixtures fixtures;
    private final Map<String, String> environment;
    private final Path envFile;
    private final Path logs;
    private final List<Path> backgroundCodes = new ArrayList<>();
    private int steps;

    DocRunner(Path root, DocFixtures fixtures, Map<String, String> environment) throws IOException {
        this.root = root;
        this.fixtures = fixtures;
        this.environment = new LinkedHashMap<>(environment);
        Path scratch = root.resolve(DocFixtures.SCRATCH);
        this.logs = Files.createDirectories(scratch.resolve("logs"));
        this.envFile = scratch.resolve("env.sh");
        Files.deleteIfExists(envFile);
    }

    /** Runs one documented step (after {@link DocFixtures#prepare}); {@code wait} waits for the background steps. */
    Result run(String documented, Duration timeout) throws IOException, InterruptedException {
        if (documented.equals("wait")) {
            return waitForBackground(timeout);
        }
        String command = fixtures.prepare(documented);
        boolean background = command.endsWith("&") && !command.endsWith("&&");
        Path log = logs.resolve(String.format("%03d.log", ++steps));
        String body = command;
        if (background) {
            Path code = logs.resolve(String.format("%03d.exit", steps));
            Files.deleteIfExists(code);
            backgroundCodes.add(code);
            String inner = command.substring(0, command.length() - 1).strip();
            body = "( " + inner + "\n echo $? > " + quote(code) + " ) &\necho $! > " + quote(pidFile(code))
                    + "\n(exit 0)";
        }
        String script = "cd " + quote(root) + " || exit 97\n"
                + "[ -f " + quote(envFile) + " ] && . " + quote(envFile) + "\n"
                + body + "\n"
                + "rc=$?\n"
                + "export -p | grep '^declare -x IVS_' > " + quote(envFile) + ".new && mv " + quote(envFile)
                + ".new " + quote(envFile) + "\n"
                + "exit $rc\n";
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script)
                .directory(root.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().putAll(environment);
        Process p = pb.start();
        int code;
        if (p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            code = p.exitValue();
        } else {
            kill(p.toHandle());
            code = -1;
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        if (!background) {
            noteFolders(output);
        }
        return new Result(command, code, tail(output, 40), log);
    }

    private Result waitForBackground(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        StringBuilder tail = new StringBuilder();
        int worst = 0;
        for (Path code : backgroundCodes) {
            while (!Files.isRegularFile(code) || Files.readString(code).isBlank()) {
                if (System.nanoTime() > deadline) {
                    Path pid = pidFile(code);
                    if (Files.isRegularFile(pid)) {
                        ProcessHandle.of(Long.parseLong(Files.readString(pid).strip()))
                                .ifPresent(DocRunner::kill);
                    }
                    backgroundCodes.clear();
                    return new Result("wait", -1, "background step " + code + " still running", code);
                }
                Thread.sleep(200);
            }
            int c = Integer.parseInt(Files.readString(code).strip());
            Path log = Path.of(code.toString().replace(".exit", ".log"));
            String output = Files.readString(log, StandardCharsets.UTF_8);
            noteFolders(output);
            tail.append(log).append(": exit ").append(c).append('\n').append(tail(output, 20));
            worst = worst == 0 ? c : worst;
        }
        backgroundCodes.clear();
        return new Result("wait", worst, tail.toString(), logs);
    }

    /** Waits for background steps nobody waited for; true when there were none or they all succeeded. */
    Result finish(Duration timeout) throws IOException, InterruptedException {
        return waitForBackground(timeout);
    }

    /** Remembers the results folders a step's output names, for the placeholders of the next steps. */
    private void noteFolders(String output) {
        Matcher m = RESULTS_FOLDER.matcher(output);
        while (m.find()) {
            fixtures.printed(m.group(1));
        }
    }

    private static void kill(ProcessHandle process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static Path pidFile(Path code) {
        return Path.of(code.toString().replace(".exit", ".pid"));
    }

    static String quote(Object path) {
        return "'" + path.toString().replace("'", "'\\''") + "'";
    }

    private static String tail(String output, int lines) {
        String[] all = output.split("\n");
        StringBuilder b = new StringBuilder();
        for (int i = Math.max(0, all.length - lines); i < all.length; i++) {
            b.append(all[i]).append('\n');
        }
        return b.toString();
    }
}
