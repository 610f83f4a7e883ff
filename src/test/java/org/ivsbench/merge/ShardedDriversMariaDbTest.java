package org.ivsbench.merge;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.StatusCounters;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.faults.CliProcess;
import org.ivsbench.faults.MariaDbServer;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * n driver processes ({@code java -jar benchbase.jar --shard i/n}) against the private MariaDB, then
 * {@code merge}: the merged counts are what the server executed, the merged percentiles those of one histogram of
 * every shard's latency.hlog, the merged rate the configured one; a shard that dies is named, not dropped.
 *
 * <p>The measured phase sits between two idle phases (rate disabled): the server's counters are read in the
 * first and in the last, so the barrier's own statements and each driver's setup and shutdown are outside the
 * difference. A short phase before them makes each driver learn the table's layout (two catalog SELECTs per
 * terminal that asks at once) outside the difference too. The test reads the counters when every shard has
 * announced the idle phase on its console (an event, not a time), and then checks, against the phase boundaries
 * the shards recorded in summary.json, that each read did fall inside its idle phase; a box too busy for that
 * fails naming the unmet premise, not with a wrong count. The server is a MariaDB of this class's own: its counters
 * are server-wide, and on the suite's shared server anything else that runs a SELECT (another test, an exporter
 * scraped meanwhile) would be counted too.
 */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): several driver processes (120 s exit
// bounds each) and their merge; 115 s for one method on a 2-core box at load 30.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ShardedDriversMariaDbTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern START = Pattern.compile("starting at (\\d+)");
    private static final int IDLE_S = 5;
    private static final int MEASURED_S = 4;
    private static final int RATE = 800;
    private static final int MEASURED = 2;

    private static MariaDbServer server;

    @TempDir
    Path dir;

    /** Started by the first test that needs it (the bad-value test runs on SQLite alone). */
    private static MariaDbServer server() throws Exception {
        if (server == null) {
            server = MariaDbServer.ownInstance("shards-mariadb");
        }
        return server;
    }

    @AfterAll
    static void removeServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private Path config(String table, long seed) throws Exception {
        String xml = "<parameters>" + server().connectionXml()
                + "<terminals>4</terminals><randomSeed>" + seed + "</randomSeed><recordcount>500</recordcount>"
                + "<table>" + table + "</table><monitor><enabled>false</enabled></monitor>"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>UpdateRecord</name></transactiontype></transactiontypes><works>"
                + "<work><name>warm</name><time>2</time><rate>40</rate><weights>70,30</weights>"
                + "<active_terminals>4</active_terminals></work>"
                + "<work><name>before</name><time>" + IDLE_S
                + "</time><rate>disabled</rate><weights>70,30</weights></work>"
                + "<work><name>measured</name><time>" + MEASURED_S + "</time><rate>" + RATE + "</rate>"
                + "<weights>70,30</weights><active_terminals>4</active_terminals></work>"
                + "<work><name>after</name><time>" + IDLE_S
                + "</time><rate>disabled</rate><weights>70,30</weights></work>"
                + "</works></parameters>";
        Path file = dir.resolve(table + ".xml");
        Files.writeString(file, xml);
        CliProcess setup = CliProcess.start(dir, "-b", "ycsbivs", "-c", file.toString(), "--create", "--load");
        assertEquals(0, setup.waitFor(120), setup.stderr());
        return file;
    }

    private List<CliProcess> startShards(Path config, int n, String... extra) throws Exception {
        List<CliProcess> shards = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<String> args = new ArrayList<>(List.of(
                    "-b",
                    "ycsbivs",
                    "-c",
                    config.toString(),
                    "--execute",
                    "--shard",
                    i + "/" + n,
                    "-d",
                    dir.resolve("shard" + i).toString()));
            args.addAll(List.of(extra));
            shards.add(CliProcess.start(dir, args.toArray(String[]::new)));
        }
        return shards;
    }

    private static long startInstant(CliProcess shard) throws Exception {
        shard.awaitOutput("starting at ", 120);
        Matcher m = START.matcher(shard.stdout());
        assertTrue(m.find());
        return Long.parseLong(m.group(1));
    }

    /** Waits until every shard has printed the console line of phase {@code name} (1-based {@code number}). */
    private static void awaitPhase(List<CliProcess> shards, int number, String name) throws Exception {
        for (CliProcess s : shards) {
            s.awaitOutput("[phase " + number + "/4 " + name + "]", 120);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void mergedShardsAreWhatTheServerDidAtTheConfiguredRate(int n) throws Exception {
        Path config = config("shards" + n, 100 + n);
        List<CliProcess> shards = startShards(config, n);
        TargetConfig own = new TargetConfig(
                "MARIADB",
                "org.mariadb.jdbc.Driver",
                server().url(),
                TestServers.mariadbUser(),
                TestServers.mariadbPassword(),
                "TRANSACTION_REPEATABLE_READ",
                false,
                Map.of());
        try (Target target = Targets.open(own)) {
            StatusCounters counters = target.capability(StatusCounters.class).orElseThrow();
            long start = startInstant(shards.get(0));
            for (CliProcess s : shards) {
                assertEquals(start, startInstant(s), "every shard starts at the one instant");
            }
            awaitPhase(shards, 2, "before");
            Map<String, Double> before = counters.snapshot();
            long beforeReadEnd = System.currentTimeMillis();
            awaitPhase(shards, 4, "after");
            long afterReadStart = System.currentTimeMillis();
            Map<String, Double> after = counters.snapshot();
            long afterReadEnd = System.currentTimeMillis();
            for (CliProcess s : shards) {
                assertEquals(0, s.waitFor(120), s.stderr());
            }
            Path merged = dir.resolve("merged");
            CliProcess merge = merge(merged, n);
            assertEquals(0, merge.waitFor(60), merge.stderr());

            JsonNode summary = JSON.readTree(merged.resolve("summary.json").toFile());
            // The premise of the exact counts below: each read fell in its idle phase (the merged summary's
            // measured phase starts at the earliest shard's start and ends at the latest shard's last operation).
            JsonNode measuredPhase = summary.path("phases").get(MEASURED);
            assertTrue(
                    beforeReadEnd <= measuredPhase.path("startMs").asLong(),
                    "premise unmet: the first read of the counters ended at " + beforeReadEnd
                            + ", after the measured phase began at " + measuredPhase.path("startMs"));
            assertTrue(
                    afterReadStart >= measuredPhase.path("endMs").asLong()
                            && afterReadEnd
                                    <= summary.path("phases")
                                            .get(MEASURED + 1)
                                            .path("endMs")
                                            .asLong(),
                    "premise unmet: the second read of the counters [" + afterReadStart + ", " + afterReadEnd
                            + "] was not inside the idle phase after the measured one: " + summary.path("phases"));
            assertTrue(summary.path("complete").asBoolean());
            assertEquals(n, summary.path("shards").path("count").asInt());
            assertEquals(n, summary.path("shards").path("merged").size());
            assertEquals(4, summary.path("terminals").asInt());
            for (JsonNode shard : summary.path("shards").path("shards")) {
                // One host: the server's clock is this host's, so the offset lies within its bound, uncorrected.
                JsonNode barrier = shard.path("barrier");
                assertTrue(barrier.path("serverClock").asText().contains("UTC_TIMESTAMP(6)"), barrier.toString());
                assertTrue(barrier.path("serverClockOffsetMs").isNumber(), barrier.toString());
                assertTrue(
                        Math.abs(barrier.path("serverClockOffsetMs").asDouble())
                                <= barrier.path("offsetBoundMs").asDouble() + 0.001,
                        barrier.toString());
                assertEquals(0, barrier.path("startCorrectionMs").asLong(), barrier.toString());
                assertTrue(
                        merge.stdout().contains("shard " + shard.path("index").asInt() + ": clock offset "),
                        merge.stdout());
            }
            JsonNode phase = summary.path("phases").get(MEASURED);
            long reads = phase.path("transactions")
                    .path("ReadRecord")
                    .path("operations")
                    .asLong();
            long updates = phase.path("transactions")
                    .path("UpdateRecord")
                    .path("operations")
                    .asLong();
            assertEquals(reads, Math.round(after.get("Com_select") - before.get("Com_select")), "reads vs Com_select");
            assertEquals(
                    updates, Math.round(after.get("Com_update") - before.get("Com_update")), "updates vs Com_update");

            assertEquals(RATE, phase.path("rate").path("target").asDouble(), 1e-6, "the shards' targets add up");
            assertEquals(
                    RATE * MEASURED_S,
                    phase.path("operations").asLong() + phase.path("missed").asLong());
            long shardsMissed = 0;
            for (int i = 0; i < n; i++) {
                shardsMissed += JSON.readTree(
                                shardFolder(i).resolve("summary.json").toFile())
                        .path("phases")
                        .get(MEASURED)
                        .path("missed")
                        .asLong();
            }
            assertEquals(shardsMissed, phase.path("missed").asLong(), "the merged missed arrivals are the shards' sum");
            // The merged rate, exactly: the shards' arrivals over the measured seconds are the configured total
            // (asserted above: completed + missed). How many of them a loaded machine had to give up as missed, and
            // the wall-clock throughput (which also counts the drain of the last operations: 793.7/s once in CI at
            // 800/s), are timing figures, not asserted here; scripts/bench/shards.sh reports them.
            assertEquals(
                    RATE,
                    (phase.path("operations").asLong() + phase.path("missed").asLong()) / (double) MEASURED_S);
            System.out.println("merged throughput " + phase.path("throughput").asDouble() + " ops/s at " + RATE);

            List<Path> logs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                logs.add(shardFolder(i).resolve("latency.hlog"));
            }
            assertPercentiles(phase.path("responseTimeUs"), histogram(logs, "p" + MEASURED + "."), "ALL");
            assertPercentiles(
                    phase.path("transactions").path("UpdateRecord").path("responseTimeUs"),
                    histogram(logs, "p" + MEASURED + ".UpdateRecord"),
                    "UpdateRecord");
            assertEquals(
                    reads + updates,
                    histogram(List.of(merged.resolve("latency.hlog")), "p" + MEASURED + ".")
                            .getTotalCount(),
                    "the merged latency.hlog holds every operation once");
            long samplesOps = sampleOps(merged.resolve("samples.csv"), MEASURED);
            assertEquals(reads + updates, samplesOps, "the merged samples.csv windows hold every operation once");
        } finally {
            shards.forEach(CliProcess::destroyIfAlive);
        }
    }

    @Test
    void aShardThatDiesIsReportedAndAShardThatNeverComesTimesOut() throws Exception {
        Path config = config("shardsdie", 7);
        List<CliProcess> shards = startShards(config, 2);
        try {
            startInstant(shards.get(0));
            awaitPhase(List.of(shards.get(1)), 3, "measured");
            assertTrue(shards.get(1).process().isAlive(), "premise unmet: shard 1 ended before it could be killed");
            shards.get(1).process().destroyForcibly(); // kill -9 in the measured phase
            shards.get(1).process().waitFor();
            assertEquals(0, shards.get(0).waitFor(120), shards.get(0).stderr());
            Path merged = dir.resolve("merged");
            CliProcess merge = merge(merged, 2);
            assertEquals(
                    1, merge.waitFor(60), "exit 1: merged with a shard left out; " + merge.stdout() + merge.stderr());
            assertTrue(merge.stderr().contains("left out: shard 1"), merge.stderr());
            JsonNode summary = JSON.readTree(merged.resolve("summary.json").toFile());
            assertFalse(summary.path("complete").asBoolean());
            assertEquals("[0]", summary.path("shards").path("merged").toString());
            assertTrue(
                    summary.path("shards").path("leftOut").get(0).asText().contains("did not finish"),
                    summary.toString());
        } finally {
            shards.forEach(CliProcess::destroyIfAlive);
        }

        Path aloneConfig = config("shardsalone", 8);
        CliProcess alone = CliProcess.start(
                dir,
                "-b",
                "ycsbivs",
                "-c",
                aloneConfig.toString(),
                "--execute",
                "--shard",
                "0/2",
                "--barrier-timeout",
                "2",
                "-d",
                dir.resolve("alone").toString());
        assertEquals(1, alone.waitFor(120));
        assertTrue(alone.stderr().contains("shard(s) [1] of 2 did not arrive within 2 s"), alone.stderr());
    }

    @Test
    void badShardValuesAreOneLineAndExitTwo() throws Exception {
        Path config = dir.resolve("any.xml");
        Files.writeString(
                config,
                "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + dir.resolve("x.db")
                        + "</url><terminals>1</terminals><transactiontypes><transactiontype><name>ReadRecord</name>"
                        + "</transactiontype></transactiontypes><works><work><time>1</time><rate>10</rate></work></works>"
                        + "</parameters>");
        for (String bad : List.of("2/2", "x", "1/0")) {
            CliProcess p = CliProcess.start(dir, "-b", "ycsbivs", "-c", config.toString(), "--execute", "--shard", bad);
            assertEquals(2, p.waitFor(60), p.stderr());
            assertEquals(
                    "error: --shard: '" + bad + "'",
                    p.stderr()
                            .lines()
                            .findFirst()
                            .orElse("")
                            .replaceAll("' .*", "'")
                            .replaceAll("':.*", "'"));
            assertEquals(1, p.stderr().lines().count(), p.stderr());
        }
        CliProcess few = CliProcess.start(dir, "-b", "ycsbivs", "-c", config.toString(), "--execute", "--shard", "0/2");
        assertEquals(2, few.waitFor(60));
        assertTrue(few.stderr().startsWith("error: --shard 0/2: the config has 1 terminal(s)"), few.stderr());
    }

    private CliProcess merge(Path merged, int n) throws Exception {
        List<String> args = new ArrayList<>(List.of("merge", "-o", merged.toString()));
        for (int i = 0; i < n; i++) {
            args.add(dir.resolve("shard" + i).toString());
        }
        return CliProcess.start(dir, args.toArray(String[]::new));
    }

    private Path shardFolder(int i) throws Exception {
        try (var s = Files.list(dir.resolve("shard" + i))) {
            return s.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    static Histogram histogram(List<Path> logs, String tagPrefix) throws Exception {
        Histogram all = new Histogram(3);
        for (Path log : logs) {
            HistogramLogReader r = new HistogramLogReader(new File(log.toString()));
            EncodableHistogram e;
            while ((e = r.nextIntervalHistogram()) != null) {
                if (e instanceof Histogram h && h.getTag() != null && h.getTag().startsWith(tagPrefix)) {
                    all.add(h);
                }
            }
            r.close();
        }
        return all;
    }

    private static void assertPercentiles(JsonNode figures, Histogram expected, String what) {
        assertTrue(expected.getTotalCount() > 0, what);
        assertEquals(expected.getValueAtPercentile(50), figures.path("p50").asLong(), what + " p50");
        assertEquals(expected.getValueAtPercentile(90), figures.path("p90").asLong(), what + " p90");
        assertEquals(expected.getValueAtPercentile(99), figures.path("p99").asLong(), what + " p99");
        assertEquals(expected.getValueAtPercentile(99.9), figures.path("p999").asLong(), what + " p999");
        assertEquals(expected.getMaxValue(), figures.path("max").asLong(), what + " max");
    }

    private static long sampleOps(Path samples, int phase) throws Exception {
        long total = 0;
        for (String line : Files.readAllLines(samples)
                .subList(1, Files.readAllLines(samples).size())) {
            String[] c = line.split(",", -1);
            if (c[2].equals(Integer.toString(phase)) && c[3].equals("ALL")) {
                for (int i = 4; i < 8; i++) {
                    total += Long.parseLong(c[i]);
                }
            }
        }
        return total;
    }
}
