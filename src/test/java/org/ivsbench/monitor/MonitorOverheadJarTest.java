package org.ivsbench.monitor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.faults.CliProcess;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code monitor-overhead} with the options docs/measurement.md and docs/performance.md give it ({@code --samples
 * --fast --db-url --db-user --db-password-env --server-pid}), through the jar against the private MariaDB: it prints
 * the figures the docs describe, for the counts it was asked for, with their own arithmetic right (per cent of a core
 * = CPU per sample over the interval; the server's difference = during minus idle, at 100 ticks/s). No figure is
 * compared with a bound: they are this busy box's CPU times.
 */
class MonitorOverheadJarTest {
    private static final String NUM = "([0-9.]+)";

    @TempDir
    Path tmp;

    @Test
    void printsTheDocumentedFiguresForAServerDatabase() throws Exception {
        String pid = Files.readString(Path.of(TestServers.mariadbPidFile())).strip();
        CliProcess p = CliProcess.start(
                tmp,
                Map.of("IVS_OVERHEAD_TEST_PW", TestServers.mariadbPassword()),
                List.of("-Xmx256m"),
                "monitor-overhead",
                "--samples",
                "3",
                "--interval",
                "200",
                "--fast",
                "40",
                "--db-url",
                TestServers.mariadbUrl(),
                "--db-user",
                TestServers.mariadbUser(),
                "--db-password-env",
                "IVS_OVERHEAD_TEST_PW",
                "--server-pid",
                pid);
        assertEquals(0, p.waitFor(300), p.stdout() + p.stderr());
        String out = p.stdout();
        List<String> lines = out.lines().toList();
        assertEquals(7, lines.size(), "a header, the counters line and five figures: " + out);

        Matcher head = find("monitor overhead: (\\d+) host columns per row, (\\d+) cores, load average .+", out);
        assertTrue(Integer.parseInt(head.group(1)) >= 10, "os.* and proc.* columns: " + out);
        assertEquals(Runtime.getRuntime().availableProcessors(), Integer.parseInt(head.group(2)), out);
        Matcher db = find("database counters: MariaDB/MySQL, (\\d+) db\\.\\* columns per row", out);
        assertTrue(Integer.parseInt(db.group(1)) >= 100, "the default selection's counters: " + out);

        for (String what : List.of("host", "host \\+ db counters")) {
            Matcher fast = find(
                    "fast, " + what + " \\(back to back, 40 samples\\): cpu " + NUM + " us/sample \\(p50 " + NUM
                            + ", max " + NUM + "\\), wall " + NUM + " us",
                    out);
            checkCpu(fast, out);
            Matcher paced = find(
                    "paced, " + what + " \\(3 samples every 200 ms\\): cpu " + NUM + " us/sample \\(p50 " + NUM
                            + ", max " + NUM + "\\), wall " + NUM + " us = " + NUM + "% of one core",
                    out);
            checkCpu(paced, out);
            double cpuUs = Double.parseDouble(paced.group(1));
            double pct = Double.parseDouble(paced.group(5));
            assertEquals(cpuUs / (200 * 1000.0) * 100, pct, 0.0001, "per cent of one core at 200 ms: " + out);
        }
        Matcher server = find(
                "  server process cpu: " + NUM + " us/read during the reads, " + NUM + " us per same time idle,"
                        + " difference (-?[0-9.]+) us/read \\(" + NUM + " s each, 100 ticks/s resolution\\)",
                out);
        double during = Double.parseDouble(server.group(1));
        double idle = Double.parseDouble(server.group(2));
        assertEquals(during - idle, Double.parseDouble(server.group(3)), 0.11, out);
        assertTrue(during > 0, "the server worked during the 40 counter reads: " + out);
        // One CPU tick (10 ms) spread over the 40 reads is the resolution: every figure is a multiple of it.
        assertEquals(0, Math.round(during * 40) % 10_000, "whole ticks: " + out);
    }

    private static Matcher find(String regex, String out) {
        Matcher m = Pattern.compile("(?m)^" + regex + "$").matcher(out);
        assertTrue(m.find(), "no line /" + regex + "/ in:\n" + out);
        return m;
    }

    /** cpu, p50, max: positive, the median at most the maximum, the mean at most the maximum. */
    private static void checkCpu(Matcher m, String out) {
        double mean = Double.parseDouble(m.group(1));
        double p50 = Double.parseDouble(m.group(2));
        double max = Double.parseDouble(m.group(3));
        assertTrue(mean > 0 && p50 > 0 && p50 <= max && mean <= max, m.group() + " in:\n" + out);
    }
}
