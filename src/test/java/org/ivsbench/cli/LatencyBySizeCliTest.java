package org.ivsbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * latency_by_size.csv of a run through the command line, against what the config implies for every operation's
 * size. 100 records of 3 fields x 100 bytes; phase 0 reads whole records (300 bytes each) after a warmup; phase 1
 * extends every record once (one terminal, sequential keys) by 1,000 bytes, so each extended field is 1,100 bytes;
 * phase 2 reads whole records (1,300 bytes) and scans (no size: the unknown-size row). The rows of each phase and
 * type must add up to summary.json's counts, and sit in the buckets of those sizes.
 */
class LatencyBySizeCliTest {
    private static final int RECORDS = 100;
    private static final int FIELDS = 3;
    private static final int FIELD_BYTES = 100;
    private static final int EXTEND_BYTES = 1000;
    private static final String HEADER =
            "phase,type,bucket_lo,bucket_hi,count,lat_avg_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_max_us";

    @TempDir
    Path tmp;

    private static String body(String extendMethod) {
        return "<terminals>1</terminals><randomSeed>5</randomSeed>"
                + "<recordcount>" + RECORDS + "</recordcount><fieldcount>" + FIELDS + "</fieldcount>"
                + "<fieldlength>" + FIELD_BYTES + "</fieldlength><extendfieldlength>" + EXTEND_BYTES
                + "</extendfieldlength><extendmethod>" + extendMethod + "</extendmethod>"
                + "<table>by_size</table><monitor><enabled>false</enabled></monitor>"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>ExtendRecord</name></transactiontype>"
                + "<transactiontype><name>ScanRecord</name></transactiontype></transactiontypes>"
                + "<works>"
                + "<work><count>300</count><warmup>1</warmup><rate>unlimited</rate><weights>100,0,0</weights></work>"
                + "<work><count>" + RECORDS + "</count><rate>unlimited</rate><weights>0,100,0</weights>"
                + "<distribution>sequential</distribution></work>"
                + "<work><count>400</count><rate>unlimited</rate><weights>75,0,25</weights></work>"
                + "</works></parameters>";
    }

    /** The lower bound of the log2 bucket holding {@code size}, by doubling (0 for 0). */
    private static long bucketLow(long size) {
        long p = size == 0 ? 0 : 1;
        while (p > 0 && p <= size / 2) {
            p *= 2;
        }
        return p;
    }

    private Path run(String name, String connection, String extendMethod) throws IOException {
        Path cfg = tmp.resolve(name + ".xml");
        Files.writeString(cfg, "<parameters>" + connection + body(extendMethod));
        Path out = tmp.resolve("results-" + name);
        CliHarness.Result r = CliHarness.run(
                "-b", "ycsbivs", "-c", cfg.toString(), "--create", "--load", "--execute", "-d", out.toString());
        assertEquals(0, r.code(), name + ": " + r.err());
        try (Stream<Path> s = Files.list(out)) {
            return s.findFirst().orElseThrow();
        }
    }

    /**
     * Checks the folder's file: counts per phase and type equal summary.json's, and each (phase, type) has exactly
     * the expected buckets; {@code extendSized} false: the extends' sizes are unknown (server-side extends).
     */
    private static void check(Path dir, boolean extendSized) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("latency_by_size.csv"));
        assertEquals(HEADER, lines.get(0));
        // phase/type -> bucket_lo ("" for unknown) -> count
        Map<String, Map<String, Long>> got = new TreeMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split(",", -1);
            assertEquals(10, c.length, line);
            if (!c[2].isEmpty()) {
                assertEquals(Long.parseLong(c[2]) == 0 ? 1 : 2 * Long.parseLong(c[2]), Long.parseLong(c[3]), line);
            }
            long count = Long.parseLong(c[4]);
            assertTrue(count > 0, line);
            long p50 = Long.parseLong(c[6]);
            long p99 = Long.parseLong(c[8]);
            long max = Long.parseLong(c[9]);
            assertTrue(p50 <= p99 && p99 <= max, line);
            got.computeIfAbsent(c[0] + "/" + c[1], k -> new TreeMap<>()).merge(c[2], count, Long::sum);
        }
        JsonNode summary =
                new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        assertTrue(summary.get("complete").asBoolean());
        JsonNode phases = summary.get("phases");
        assertTrue(phases.get(0).get("warmupOperations").asLong() > 0, "phase 0 had a warmup to leave out");

        Map<String, Map<String, Long>> want = new TreeMap<>();
        String loaded = Long.toString(bucketLow((long) FIELDS * FIELD_BYTES));
        String extended = extendSized ? Long.toString(bucketLow(FIELD_BYTES + EXTEND_BYTES)) : "";
        String grown = Long.toString(bucketLow((long) FIELDS * FIELD_BYTES + EXTEND_BYTES));
        want.put("0/ReadRecord", Map.of(loaded, 300L));
        want.put("1/ExtendRecord", Map.of(extended, (long) RECORDS));
        long reads = phases.get(2)
                .get("transactions")
                .get("ReadRecord")
                .get("operations")
                .asLong();
        long scans = phases.get(2)
                .get("transactions")
                .get("ScanRecord")
                .get("operations")
                .asLong();
        assertEquals(400, reads + scans);
        want.put("2/ReadRecord", Map.of(grown, reads));
        if (scans > 0) {
            want.put("2/ScanRecord", Map.of("", scans));
        }
        assertEquals(want, got, dir.toString());
        // And the other way round: every type's count in summary.json is in the file.
        for (int p = 0; p < 3; p++) {
            JsonNode types = phases.get(p).get("transactions");
            for (String type : List.of("ReadRecord", "ExtendRecord", "ScanRecord")) {
                long ops = types.get(type).get("operations").asLong();
                Map<String, Long> rows = got.getOrDefault(p + "/" + type, Map.of());
                assertEquals(
                        ops, rows.values().stream().mapToLong(Long::longValue).sum(), p + "/" + type);
            }
        }
    }

    @Test
    void sqliteRunMatchesTheSizesTheConfigImplies() throws Exception {
        Path dir = run("sqlite", "<type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve("s.db") + "</url>", "client");
        check(dir, true);
    }

    @Test
    void mariaDbRunMatchesTheSizesTheConfigImpliesAndServerExtendsHaveNoSize() throws Exception {
        String connection = "<type>MARIADB</type><url>" + TestServers.mariadbUrl() + "</url><username>"
                + TestServers.mariadbUser() + "</username><password>" + TestServers.mariadbPassword()
                + "</password>";
        check(run("mariadb-client", connection, "client"), true);
        check(run("mariadb-server", connection, "server"), false);
    }
}
