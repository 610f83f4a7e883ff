package org.ivsbench.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.ivsbench.testsupport.Await;

/**
 * {@code java -jar target/benchbase.jar ...} as its own process, the way users run it: its own JVM, signals,
 * exit code, stdout and stderr (slf4j-simple logs to stderr) captured to files.
 */
public final class CliProcess {
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private CliProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** The jar built by {@code mvn package} (surefire passes its path as ivs.jar). */
    public static Path jar() {
        String jar = System.getProperty("ivs.jar", "target/benchbase.jar");
        Path path = Path.of(jar);
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException(
                    path + " is missing: run mvn -B -q -o -DskipTests package first" + " (scripts/test.sh does)");
        }
        return path;
    }

    /**
     * Puts SIGINT and SIGQUIT back to their default action before the JVM starts. A suite started in the
     * background ({@code nohup scripts/test.sh &}) has them ignored; a JVM that inherits that never runs its
     * shutdown hooks on SIGINT, so an interrupt test would fail only when the suite runs in the background.
     * Ignored signals survive exec and setsid; perl (essential on Debian) resets them and execs in place, so the
     * pid stays the JVM's.
     */
    private static final List<String> DEFAULT_SIGNALS = List.of(
            "perl",
            "-e",
            "$SIG{INT} = 'DEFAULT'; $SIG{QUIT} = 'DEFAULT'; exec { $ARGV[0] } @ARGV or die \"exec $ARGV[0]: $!\\n\";");

    /** Starts the CLI; {@code env} is added to this JVM's environment, {@code jvmOptions} go before -jar. */
    public static CliProcess start(Path logDir, Map<String, String> env, List<String> jvmOptions, String... args)
            throws IOException {
        List<String> command = new ArrayList<>(DEFAULT_SIGNALS);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar().toAbsolutePath().toString());
        command.addAll(List.of(args));
        Path out = Files.createTempFile(logDir, "stdout", ".txt");
        Path err = Files.createTempFile(logDir, "stderr", ".txt");
        ProcessBuilder pb =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        return new CliProcess(pb.start(), out, err);
    }

    public static CliProcess start(Path logDir, String... args) throws IOException {
        return start(logDir, Map.of(), List.of(), args);
    }

    public Process process() {
        return process;
    }

    public long pid() {
        return process.pid();
    }

    /** Waits for the exit code; kills the process and fails after {@code seconds}. */
    public int waitFor(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(
                    "the CLI did not exit within " + seconds + " s; stdout: " + stdout() + "\nstderr: " + stderr());
        }
        return process.exitValue();
    }

    /** Waits until stdout contains {@code text} (e.g. "Results: " when execution starts). */
    public void awaitOutput(String text, long seconds) throws Exception {
        Await.until(
                "'" + text + "' on the CLI's stdout",
                Duration.ofSeconds(seconds),
                Duration.ofMillis(20),
                () -> {
                    String out = stdout();
                    if (!out.contains(text) && !process.isAlive()) {
                        throw new AssertionError("no '" + text + "' on stdout (exited " + process.exitValue()
                                + "); stdout: " + out + "\nstderr: " + stderr());
                    }
                    return out;
                },
                out -> out.contains(text));
    }

    public String stdout() {
        return read(stdout);
    }

    public String stderr() {
        return read(stderr);
    }

    /** The results folder the CLI announced ("Results: <dir>"). */
    public Path resultsDir() {
        for (String line : stdout().split("\n")) {
            if (line.startsWith("Results: ")) {
                return Path.of(line.substring("Results: ".length()).trim());
            }
        }
        throw new AssertionError("no 'Results: ' line; stdout: " + stdout() + "\nstderr: " + stderr());
    }

    /** Sends a signal by name with kill(1), e.g. "INT"; Process.destroy() is SIGTERM. */
    public void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                .inheritIO()
                .start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    public void destroyIfAlive() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "<" + e + ">";
        }
    }
}
