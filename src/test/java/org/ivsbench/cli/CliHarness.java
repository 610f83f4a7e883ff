package org.ivsbench.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the CLI in this JVM and captures what it prints. */
final class CliHarness {
    record Result(int code, String out, String err) {}

    private CliHarness() {}

    static Result run(String... args) {
        return run(new ByteArrayOutputStream(), args);
    }

    /**
     * As {@link #run(String...)}, with standard output written into {@code out} as it is printed, so another thread
     * can read it while the run goes on ({@link ByteArrayOutputStream#toString} is synchronized).
     */
    static synchronized Result run(ByteArrayOutputStream out, String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Main.execute(args);
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
