package org.ivsbench.experiment;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Small experiments on the private MariaDB (InnoDB and MyRocks): what each mode really runs against. */
// Longer than the suite's 5-minute default (docs/trust.md, "Time limits"): 5-epoch experiments: 90 s for one on a
// 2-core box at load 30.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ExperimentMariaDbTest {
    private static final String TABLE = "exp_usertable";

    @TempDir
    Path tmp;

    private BenchmarkConfig config(String engine, int fieldCount, String experiment) throws Exception {
        return RunHarness.config(
                tmp,
                "<parameters>" + RunHarness.mariadbConnection()
                        + "<terminals>1</terminals><randomSeed>7</randomSeed><batchsize>64</batchsize>"
                        + "<recordcount>200</recordcount><fieldcount>" + fieldCount + "</fieldcount>"
                        + "<fieldlength>100</fieldlength><engine>" + engine + "</engine><table>" + TABLE + "</table>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works>"
                        + "<monitor><enabled>false</enabled></monitor>"
                        + "<experiment>" + experiment + "</experiment></parameters>");
    }

    /** Creates and loads the primary, runs the experiment; returns the experiment folder. */
    private Path run(BenchmarkConfig config, ExperimentListener listener) throws Exception {
        Path dir = ExperimentRuns.run(config, listener, Files.createTempDirectory(tmp, "results"))
                .dir();
        // No scratch database is left behind on the user's server.
        try (Connection c = DriverManager.getConnection(
                        TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
                ResultSet rs = c.createStatement()
                        .executeQuery("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN ('"
                                + FreshDatabases.CLEAN + "','" + FreshDatabases.AVERAGE + "','" + FreshDatabases.SPREAD
                                + "')")) {
            assertFalse(rs.next(), "a fresh database was left behind");
        }
        return dir;
    }

    /**
     * What a fresh mode's database must hold, given the primary at the end of the extend phase (its checksum
     * and value sizes; records start at 10 fields of 100 bytes): clean the same content; average-baseline the
     * same record count with every value of the average size (same volume up to rounding); spread-baseline
     * the volume in initial-size records.
     */
    static void assertFreshDatabase(Mode mode, long primaryChecksum, ValueSizeStats main, Target fresh, String table)
            throws TargetException {
        ValueSizeStats s = ValueSizeStats.of(fresh, table);
        switch (mode) {
            case CLEAN -> {
                assertEquals(primaryChecksum, checksum(fresh, table), "clean = the primary after the extends");
                assertEquals(main.totalBytes(), s.totalBytes());
            }
            case AVERAGE_BASELINE -> {
                assertEquals(main.records(), s.records());
                assertEquals(s.min(), s.max(), "uniform sizes");
                // the average value size, to the byte: the primary's volume over its number of values
                assertEquals(main.totalBytes() / (double) main.values(), s.max(), 0.5);
                assertTrue(
                        Math.abs(s.totalBytes() - main.totalBytes()) <= s.values() / 2,
                        s.totalBytes() + " vs " + main.totalBytes());
            }
            case SPREAD_BASELINE -> {
                // an initial record is 10 fields of 100 bytes: the primary's volume in 1,000-byte records
                assertEquals(main.totalBytes() / 1000.0, s.records(), 0.5);
                assertEquals(100, s.min());
                assertEquals(100, s.max());
            }
            default -> throw new AssertionError(mode);
        }
    }

    /**
     * engine_state.csv: on RocksDB every run phase's starting state, whose memtable and SST entries hold at least
     * every record of the mode's table (each record is in one or the other, older versions besides); nothing on
     * InnoDB, which has no state probe.
     */
    private static void assertEngineState(Path dir, String engine, List<String> epochRows) throws Exception {
        List<String> state = Files.readAllLines(dir.resolve("engine_state.csv"));
        assertEquals("epoch,mode,name,value", state.get(0));
        if (!engine.equals("RocksDB")) {
            assertEquals(1, state.size(), "no engine state for " + engine + ": " + state);
            return;
        }
        Map<String, Map<String, Double>> byPhase = new HashMap<>();
        for (String line : state.subList(1, state.size())) {
            String[] c = line.split(",");
            byPhase.computeIfAbsent(c[0] + "," + c[1], k -> new HashMap<>()).put(c[2], Double.parseDouble(c[3]));
        }
        for (String row : epochRows.subList(1, epochRows.size())) {
            String[] r = row.split(",", -1);
            Map<String, Double> s = byPhase.get(r[0] + "," + r[1]);
            assertTrue(s != null, "engine state of " + r[0] + "," + r[1] + ": " + byPhase.keySet());
            for (String name :
                    List.of("rocksdb.memtable_bytes", "rocksdb.memtable_entries", "rocksdb.table_sst_entries")) {
                assertTrue(s.containsKey(name), r[0] + "," + r[1] + " lacks " + name + ": " + s);
            }
            long records = Long.parseLong(r[2]);
            assertTrue(
                    s.get("rocksdb.memtable_entries") + s.get("rocksdb.table_sst_entries") >= records,
                    r[0] + "," + r[1] + ": memtable + SST entries hold the " + records + " records: " + s);
        }
    }

    /** CRC32 over every record's key, field names and values in key order: equal content, equal checksum. */
    static long checksum(Target t, String table) throws TargetException {
        CRC32 crc = new CRC32();
        t.forEachRecord(table, r -> {
            crc.update(r.key().getBytes(StandardCharsets.UTF_8));
            r.fields().forEach((k, v) -> {
                crc.update(k.getBytes(StandardCharsets.UTF_8));
                crc.update(v.getBytes(StandardCharsets.UTF_8));
            });
        });
        return crc.getValue();
    }

    @ParameterizedTest
    @CsvSource({"InnoDB,logical", "RocksDB,logical", "InnoDB,native", "RocksDB,native"})
    void everyModeRunsAgainstWhatThePaperDescribes(String engine, String cleanMethod) throws Exception {
        BenchmarkConfig config = config(
                engine,
                10,
                "<epochs>3</epochs>"
                        + "<extend><count>400</count><distribution>zipfian</distribution></extend>"
                        + "<run><count>300</count></run><clean><method>" + cleanMethod + "</method></clean>");
        Map<Integer, Long> primarySum = new HashMap<>();
        Map<Integer, ValueSizeStats> primarySizes = new HashMap<>();
        Map<String, Boolean> checked = new HashMap<>();
        ExperimentListener listener = new ExperimentListener() {
            @Override
            public void primaryReady(int epoch, Target primary, String table) throws TargetException {
                primarySum.put(epoch, checksum(primary, TABLE));
                primarySizes.put(epoch, ValueSizeStats.of(primary, table));
            }

            @Override
            public void beforeDrop(int epoch, Mode mode, Target fresh, String table) throws TargetException {
                assertFreshDatabase(mode, primarySum.get(epoch), primarySizes.get(epoch), fresh, table);
                checked.put(epoch + "/" + mode, true);
            }
        };
        Path dir = run(config, listener);
        assertEquals(9, checked.size(), checked.toString());
        List<String> rows = Files.readAllLines(dir.resolve("epochs.csv"));
        assertEquals(1 + 3 * 4, rows.size());
        for (int epoch = 1; epoch <= 3; epoch++) {
            long data = 200L * 1000 + epoch * 400L * 100; // nothing reaches the cap
            for (Mode mode : Mode.PAPER) {
                String[] r = rows.get(1 + (epoch - 1) * 4 + mode.ordinal()).split(",", -1);
                assertEquals(epoch + "," + mode.label(), r[0] + "," + r[1]);
                assertEquals("300", r[14], "run_ops");
                if (mode == Mode.MAIN) {
                    assertEquals("400", r[9], "extend_ops");
                    assertEquals("", r[19], "no snapshot on main");
                    assertEquals(data, Long.parseLong(r[3]));
                } else {
                    assertEquals("", r[9]);
                    assertTrue(!r[19].isEmpty() && !r[20].isEmpty(), "snapshot/restore filled");
                }
                if (mode == Mode.SPREAD_BASELINE) {
                    // 200 records + 400 extends of 100 B per epoch = 40 more initial-size records per epoch
                    assertEquals(200 + 40L * epoch, Long.parseLong(r[2]));
                }
            }
        }
        assertEngineState(dir, engine, rows);
        // Each phase's summary.json names the database as a plain run's does (not only its type).
        JsonNode db = new ObjectMapper()
                .readTree(dir.resolve("epoch-001/clean/run/summary.json").toFile())
                .get("database");
        assertEquals("MARIADB", db.get("type").asText(), db.toString());
        assertEquals("MariaDB", db.get("product").asText(), db.toString());
        assertTrue(db.get("version").asText().startsWith("10."), db.toString());
        assertEquals(engine, db.get("engine").asText(), db.toString());
    }

    /**
     * The paper's second experiment: a 50:50 READ/UPDATE run phase. main's run phase rewrites fields of the
     * primary, so a clean copy taken after it would hold another state; clean must hold the state at the end
     * of the extend phase (the paper's dump), whatever main's run phase did since.
     */
    @ParameterizedTest
    @ValueSource(strings = {"logical", "native"})
    void cleanHoldsTheStateAtTheEndOfTheExtendPhaseWhenTheRunPhaseWrites(String cleanMethod) throws Exception {
        BenchmarkConfig config = config(
                "InnoDB",
                10,
                "<epochs>2</epochs><modes>main,clean</modes>"
                        + "<extend><count>400</count><distribution>zipfian</distribution></extend>"
                        + "<run><count>300</count><weights>ReadRecord:50,UpdateRecord:50</weights></run>"
                        + "<clean><method>" + cleanMethod + "</method></clean>");
        Map<Integer, Long> afterExtend = new HashMap<>();
        Map<Integer, Long> totalBytes = new HashMap<>();
        Target[] primaryRef = new Target[1];
        Map<Integer, Boolean> checked = new HashMap<>();
        ExperimentListener listener = new ExperimentListener() {
            @Override
            public void primaryReady(int epoch, Target primary, String table) throws TargetException {
                primaryRef[0] = primary;
                afterExtend.put(epoch, checksum(primary, TABLE));
                totalBytes.put(epoch, ValueSizeStats.of(primary, table).totalBytes());
            }

            @Override
            public void freshReady(int epoch, Mode mode, Target fresh, String table) throws TargetException {
                assertEquals(Mode.CLEAN, mode);
                // main's run phase has run by now and rewrote fields: the primary moved on...
                assertTrue(
                        afterExtend.get(epoch) != checksum(primaryRef[0], TABLE),
                        "main's 50:50 run phase changed the primary (else this test proves nothing)");
                // ...but clean holds the state at the end of the extend phase.
                assertEquals(afterExtend.get(epoch), checksum(fresh, TABLE), "clean = state after the extends");
                assertEquals(
                        totalBytes.get(epoch), ValueSizeStats.of(fresh, table).totalBytes());
                checked.put(epoch, true);
            }
        };
        Path dir = run(config, listener);
        assertEquals(2, checked.size(), checked.toString());
        List<String> rows = Files.readAllLines(dir.resolve("epochs.csv"));
        for (String row : rows.subList(1, rows.size())) {
            String[] r = row.split(",", -1);
            if (r[1].equals("clean")) {
                assertEquals(
                        totalBytes.get(Integer.parseInt(r[0])),
                        Long.parseLong(r[3]),
                        "clean's data_bytes is the state it read: " + row);
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            assertTrue(
                    files.noneMatch(f -> f.getFileName().toString().startsWith("clean-snapshot")),
                    "the snapshot files are deleted after their restore");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"InnoDB"})
    void zipfianExtendsGrowTheLargestValueMuchFaster(String engine) throws Exception {
        String common = "<epochs>5</epochs><modes>main</modes><run><count>50</count></run><extend><count>1000</count>";
        Path zipf = run(
                config(engine, 1, common + "<distribution>zipfian</distribution></extend>"), ExperimentListener.NONE);
        Path uniform = run(
                config(engine, 1, common + "<distribution>uniform</distribution></extend>"), ExperimentListener.NONE);
        long maxZipf = lastMax(zipf);
        long maxUniform = lastMax(uniform);
        System.out.println("largest value after 5 epochs: zipfian " + maxZipf + ", uniform " + maxUniform);
        assertTrue(maxZipf > 3 * maxUniform, "max zipfian " + maxZipf + " vs uniform " + maxUniform);
    }

    private static long lastMax(Path dir) throws Exception {
        List<String> rows = Files.readAllLines(dir.resolve("epochs.csv"));
        assertEquals(1 + 5, rows.size());
        return Long.parseLong(rows.get(rows.size() - 1).split(",")[8]);
    }
}
