package org.ivsbench.monitor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.faults.CliProcess;
import org.ivsbench.testsupport.KeyTool;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code monitor-agent} subcommand serving a real run, both through the jar as their own processes: the agent
 * watches the private MariaDB by its pid file (with a secret, over plain HTTP and over HTTPS with a keytool key
 * store), a ycsbivs run against that server names it in {@code <monitor><agent>}; the run's monitor.csv holds the
 * agent's rows of that server process: RSS and thread count inside what the test itself read from
 * /proc/PID/status during the run, CPU used, timestamps inside the run. A row may lack the agent's columns (a
 * window written before its sample arrived: the first fetch over a new connection, the final flush); at least two
 * have them.
 */
class MonitorAgentJarTest {
    private static final List<String> JVM = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1");
    private static final long INTERVAL_MS = 500;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"http", "https"})
    void aRunReadsTheDatabaseServersSamplesFromTheAgent(String scheme) throws Exception {
        String url = TestServers.mariadbUrl();
        Path pidFile = Path.of(TestServers.mariadbPidFile());
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        Path secret = Files.writeString(tmp.resolve("agent.secret"), "agent-jar-secret-" + scheme + "\n");
        List<String> agentArgs = new ArrayList<>(List.of(
                "monitor-agent",
                "--listen",
                "127.0.0.1:0",
                "--pid-file",
                pidFile.toString(),
                "--secret-file",
                secret.toString(),
                "--interval",
                Long.toString(INTERVAL_MS)));
        String tls = "";
        if (scheme.equals("https")) {
            Path store = tmp.resolve("agent.p12");
            KeyTool.keyPair(store, "agent-store-pw", "agent");
            KeyTool.trust(store, "agent-store-pw", "agent", tmp.resolve("trust.p12"), "agent-trust-pw");
            Path storePw = Files.writeString(tmp.resolve("store.pw"), "agent-store-pw\n");
            Path trustPw = Files.writeString(tmp.resolve("trust.pw"), "agent-trust-pw\n");
            agentArgs.addAll(List.of("--keystore", store.toString(), "--keystore-password-file", storePw.toString()));
            tls = "<agentTrustStore>" + tmp.resolve("trust.p12") + "</agentTrustStore><agentTrustStorePasswordFile>"
                    + trustPw + "</agentTrustStorePasswordFile>";
        }
        CliProcess agent = CliProcess.start(tmp, Map.of(), JVM, agentArgs.toArray(String[]::new));
        ProcWatch watch = new ProcWatch(pid);
        try {
            agent.awaitOutput("monitor-agent listening on ", 120);
            Matcher listening = Pattern.compile("listening on /?127\\.0\\.0\\.1:(\\d+) \\((plain HTTP|HTTPS)\\)")
                    .matcher(agent.stdout());
            assertTrue(listening.find(), agent.stdout());
            assertEquals(scheme.equals("https") ? "HTTPS" : "plain HTTP", listening.group(2), agent.stdout());
            Path config = Files.writeString(
                    tmp.resolve("run.xml"),
                    "<parameters>" + RunHarness.mariadbConnection()
                            + "<terminals>1</terminals><randomSeed>5</randomSeed><recordcount>200</recordcount>"
                            + "<engine>InnoDB</engine><table>agent_jar_" + scheme + "</table>"
                            + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                            + "</transactiontypes><works><work><time>4</time><rate>300</rate><weights>100</weights>"
                            + "<distribution>uniform</distribution></work></works>"
                            + "<monitor><interval>" + INTERVAL_MS + "</interval><agent>127.0.0.1:"
                            + listening.group(1) + "</agent><agentSecretFile>" + secret + "</agentSecretFile>" + tls
                            + "</monitor></parameters>");
            Path results = tmp.resolve("results");
            watch.start();
            long start = System.currentTimeMillis();
            CliProcess run = CliProcess.start(
                    tmp,
                    Map.of(),
                    JVM,
                    "-b",
                    "ycsbivs",
                    "-c",
                    config.toString(),
                    "--create",
                    "--load",
                    "--execute",
                    "-d",
                    results.toString());
            assertEquals(0, run.waitFor(300), "run: " + run.stdout() + "\n" + run.stderr());
            long end = System.currentTimeMillis();
            watch.stop();
            Path csv = run.resultsDir().resolve("monitor.csv");
            assertTrue(Files.isRegularFile(csv), "no monitor.csv; run: " + run.stdout() + "\n" + run.stderr());
            MonitorCsv table = new MonitorCsv(csv);
            String all = Files.readString(csv);
            int cpuRows = 0;
            int agentRows = 0;
            for (Map<String, String> row : table.rows) {
                assertEquals("agent", row.get("source"), "every row is an agent run's: " + row);
                long time = Long.parseLong(row.get("time_ms"));
                assertTrue(
                        time >= start - INTERVAL_MS && time <= end,
                        "row at " + time + " inside the run [" + start + ", " + end + "]: " + row);
                if (Double.isNaN(MonitorCsv.num(row, "os.cpu.idle_pct"))) {
                    // A window written before the agent's sample of it arrived (the first fetch over a new
                    // connection, or the final flush): the client's own columns only.
                    assertTrue(Double.isNaN(MonitorCsv.num(row, "proc.rss_bytes")), "no agent columns: " + row);
                    continue;
                }
                agentRows++;
                double rss = MonitorCsv.num(row, "proc.rss_bytes");
                assertTrue(rss > 0, "the server's RSS: " + row);
                assertTrue(
                        rss >= watch.minRss * 0.98 && rss <= watch.maxRss * 1.02,
                        "RSS " + rss + " is that of pid " + pid + " (" + watch.minRss + ".." + watch.maxRss
                                + " in /proc/" + pid + "/status during the run): " + row);
                double threads = MonitorCsv.num(row, "proc.threads");
                assertTrue(
                        threads >= watch.minThreads - 1 && threads <= watch.maxThreads + 1,
                        "threads " + threads + " of pid " + pid + " (" + watch.minThreads + ".." + watch.maxThreads
                                + "): " + row);
                assertFalse(Double.isNaN(MonitorCsv.num(row, "os.cpu.idle_pct")), "host columns: " + row);
                if (MonitorCsv.num(row, "proc.cpu_pct") > 0) {
                    cpuRows++;
                }
            }
            assertTrue(agentRows >= 2, agentRows + " rows with the agent's samples: " + all);
            assertTrue(cpuRows > 0, "the server worked during the run: " + all);
            assertTrue(
                    watch.samples > 10 && watch.maxRss > 0,
                    "the test's own /proc reads: " + watch.samples + " samples, max RSS " + watch.maxRss);
        } finally {
            watch.stop();
            agent.destroyIfAlive();
            agent.process().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** The test's own reads of /proc/PID/status every 50 ms while the run goes on: VmRSS and Threads bounds. */
    private static final class ProcWatch {
        private final Path status;
        private final AtomicBoolean running = new AtomicBoolean();
        private Thread thread;
        volatile double minRss = Double.MAX_VALUE;
        volatile double maxRss;
        volatile double minThreads = Double.MAX_VALUE;
        volatile double maxThreads;
        volatile int samples;

        ProcWatch(long pid) {
            this.status = Path.of("/proc", Long.toString(pid), "status");
        }

        void start() {
            running.set(true);
            thread = new Thread(
                    () -> {
                        while (running.get()) {
                            read();
                            try {
                                Thread.sleep(50);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "proc-watch");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            if (running.getAndSet(false)) {
                thread.join();
                read();
            }
        }

        private void read() {
            try {
                for (String line : Files.readAllLines(status)) {
                    if (line.startsWith("VmRSS:")) {
                        double rss = Double.parseDouble(line.replaceAll("\\D+", "")) * 1024;
                        minRss = Math.min(minRss, rss);
                        maxRss = Math.max(maxRss, rss);
                    } else if (line.startsWith("Threads:")) {
                        double t = Double.parseDouble(line.replaceAll("\\D+", ""));
                        minThreads = Math.min(minThreads, t);
                        maxThreads = Math.max(maxThreads, t);
                    }
                }
                samples++;
            } catch (Exception e) {
                throw new AssertionError("cannot read " + status + ": " + e, e);
            }
        }
    }
}
