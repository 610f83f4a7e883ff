package org.ivsbench.monitor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ExportersConfig;
import org.ivsbench.config.MonitorConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.Await;
import org.ivsbench.testsupport.RunHarness;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exporter-fed monitor against the private MariaDB and this checkout's private node_exporter,
 * process-exporter and mysqld_exporter (scripts/exporters.sh), beside the built-in sampler in the same run:
 * the same columns, statement counters equal to the server's own SHOW GLOBAL STATUS deltas, and the server's CPU
 * equal within the samplers' resolution (one 10 ms clock tick at each end).
 */
class ExporterMonitorMariaDbTest {
    private static final long INTERVAL = 250;
    private static final int INSERTS = 600;
    private static final int UPDATES = 400;
    /** Statement counters no monitor query raises (SHOW, SELECT and information_schema reads do not). */
    private static final List<String> EXACT = List.of("Com_insert", "Com_update");

    @TempDir
    Path dir;

    private static ExportersConfig exporters() {
        return new ExportersConfig(
                TestServers.exporterUrl("node"),
                TestServers.exporterUrl("process"),
                TestServers.exporterUrl("mysqld"),
                null,
                null,
                null);
    }

    private static Map<String, Double> status(Connection c) throws Exception {
        Map<String, Double> m = new HashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS")) {
            while (rs.next()) {
                try {
                    m.put(rs.getString(1), Double.parseDouble(rs.getString(2)));
                } catch (NumberFormatException e) {
                    // a text status (ON, a version): not a counter
                }
            }
        }
        return m;
    }

    /** Inserts run so far and the rows each monitor has written. */
    private record Progress(int inserts, int builtInRows, int exporterRows) {}

    /** Inserts run so far and the rows of the run's monitor.csv. */
    private record RunProgress(int inserts, int monitorRows) {}

    private static int rows(Path csv) throws Exception {
        return Files.exists(csv) ? Math.max(0, Files.readAllLines(csv).size() - 1) : 0;
    }

    private static void createTable(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS exporter_it");
            st.execute("CREATE TABLE exporter_it (k INT PRIMARY KEY, v VARCHAR(200)) ENGINE=InnoDB");
        }
    }

    @Test
    void exporterAndBuiltInMonitorsOfOneRunHaveTheSameColumnsAndTheServersCounterDeltas() throws Exception {
        ExportersConfig exporters = exporters();
        TargetKind kind = TargetKinds.of("MARIADB");
        try (Connection c = DriverManager.getConnection(
                        TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
                Target target = Targets.open(TestServers.mariadb())) {
            createTable(c);
            MonitorConfig config = new MonitorConfig(true, INTERVAL, null, null, TestServers.mariadbPidFile());
            Path builtInCsv = dir.resolve("builtin/monitor.csv");
            Path exporterCsv = dir.resolve("exporter/monitor.csv");
            CounterSource kindCounters = CounterSource.of(target);
            Map<String, Double> before = status(c);
            try (ResourceMonitor builtIn = ResourceMonitor.start(
                            config, kindCounters, CounterSelection.defaults(kind), builtInCsv, () -> 0);
                    ResourceMonitor fromExporters = ResourceMonitor.start(
                            config,
                            ExporterSources.host(exporters, "mariadbd"),
                            null,
                            ExporterSources.counters(exporters, kind, kindCounters, TestServers.mariadbUrl()),
                            CounterSelection.defaults(kind),
                            exporterCsv,
                            () -> 0,
                            ExporterSources.SOURCE)) {
                AtomicInteger i = new AtomicInteger();
                try (PreparedStatement insert =
                                c.prepareStatement("INSERT INTO exporter_it VALUES (?, REPEAT('x', 200))");
                        PreparedStatement update = c.prepareStatement("UPDATE exporter_it SET v = 'y' WHERE k = ?")) {
                    // Counts, not times: the monitors tick meanwhile; a few rows each before it ends.
                    Await.until(
                            INSERTS + " inserts and 4 rows from each monitor",
                            Duration.ofSeconds(120),
                            Duration.ZERO,
                            () -> {
                                insert.setInt(1, i.incrementAndGet());
                                insert.executeUpdate();
                                if (i.get() <= UPDATES) {
                                    update.setInt(1, i.get());
                                    update.executeUpdate();
                                }
                                return new Progress(i.get(), rows(builtInCsv), rows(exporterCsv));
                            },
                            p -> p.inserts() >= INSERTS && p.builtInRows() >= 4 && p.exporterRows() >= 4);
                }
            }
            Map<String, Double> after = status(c);

            MonitorCsv b = new MonitorCsv(builtInCsv);
            MonitorCsv e = new MonitorCsv(exporterCsv);
            Set<String> builtInColumns = new TreeSet<>(b.header);
            Set<String> exporterColumns = new TreeSet<>(e.header);
            assertEquals(
                    builtInColumns, exporterColumns, "the same columns from exporters as from the built-in sampler");
            for (String column : exporterColumns) {
                if (!column.startsWith("db.")) {
                    continue;
                }
                assertTrue(
                        e.rows.stream().skip(1).anyMatch(r -> !r.get(column).isEmpty()),
                        column + " has values from mysqld_exporter");
            }
            for (String name : EXACT) {
                double truth = after.get(name) - before.get(name);
                assertTrue(truth >= (name.equals("Com_insert") ? INSERTS : UPDATES), name + " moved: " + truth);
                assertEquals(truth, sum(e, "db." + name), name + " from mysqld_exporter = the server's own delta");
                assertEquals(truth, sum(b, "db." + name), name + " from the built-in sampler = the server's own delta");
            }
            for (Map<String, String> row : e.rows) {
                assertEquals("exporter", row.get("source"));
            }
            // A gauge the exporter leaves out, given back as data + free + misc: the pool's size, which stays put.
            assertEquals(
                    after.get("Innodb_buffer_pool_pages_total"),
                    MonitorCsv.num(e.rows.get(e.rows.size() - 1), "db.Innodb_buffer_pool_pages_total"));
            assertTrue(
                    e.rows.stream().anyMatch(r -> !r.get("proc.cpu_pct").isEmpty()),
                    "proc.cpu_pct from process-exporter");
            assertTrue(e.rows.stream().anyMatch(r -> !r.get("os.cpu.idle_pct").isEmpty()), "os.* from node_exporter");
        }
    }

    private static double sum(MonitorCsv table, String column) {
        double s = 0;
        for (Map<String, String> row : table.rows) {
            double v = MonitorCsv.num(row, column);
            if (!Double.isNaN(v)) {
                s += v;
            }
        }
        return s;
    }

    /**
     * Both host samplers stepped together on one virtual clock (each step one second long), the load run
     * between steps: their rates divide by the same length, so mariadbd's CPU from process-exporter and from
     * /proc add up to the same CPU time, within a tick of 10 ms at each end (the two read the kernel's counter
     * a moment apart, while the load is paused).
     */
    @Test
    void serverCpuFromProcessExporterMatchesProcWithinAClockTick() throws Exception {
        ExportersConfig exporters = exporters();
        AtomicLong virtualNanos = new AtomicLong();
        ProcSampler proc = new ProcSampler(
                Path.of("/proc"), ProcessLocator.of(TestServers.mariadbPidFile(), null), 100, virtualNanos::get);
        ExporterHostSampler fromExporters = new ExporterHostSampler(
                null,
                new ExporterScraper(exporters.process(), null, null, Duration.ofSeconds(5)),
                "mariadbd",
                virtualNanos::get);
        try (Connection c = DriverManager.getConnection(
                TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword())) {
            createTable(c);
            proc.sample();
            fromExporters.sample();
            double procSeconds = 0;
            double exporterSeconds = 0;
            int k = 0;
            try (PreparedStatement insert =
                    c.prepareStatement("INSERT INTO exporter_it VALUES (?, REPEAT('x', 200))")) {
                for (int step = 0; step < 5; step++) {
                    for (int j = 0; j < 300; j++) {
                        insert.setInt(1, ++k);
                        insert.executeUpdate();
                    }
                    virtualNanos.addAndGet(1_000_000_000L);
                    Map<String, Double> p = proc.sample();
                    Map<String, Double> x = fromExporters.sample();
                    // 100 % of a core over one (virtual) second is one CPU second.
                    procSeconds += p.get("proc.cpu_pct") / 100;
                    exporterSeconds += x.get("proc.cpu_pct") / 100;
                    assertEquals(
                            p.keySet().stream()
                                    .filter(n -> n.startsWith("proc."))
                                    .toList(),
                            List.copyOf(x.keySet()));
                }
            }
            assertTrue(procSeconds >= 0.01, "1500 inserts cost mariadbd at least a tick: " + procSeconds);
            assertEquals(procSeconds, exporterSeconds, 0.02 + 1e-9, "CPU seconds from /proc and process-exporter");
            assertFalse(Double.isNaN(exporterSeconds));
        }
    }

    /** From the config through RunMonitor, as a run starts it: rows from the exporters, marked so. */
    @Test
    void aRunsMonitorConfiguredWithExportersReadsThem() throws Exception {
        ExportersConfig exporters = exporters();
        BenchmarkConfig config = RunHarness.config(
                dir,
                "<parameters>"
                        + RunHarness.mariadbConnection()
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><count>1</count><rate>unlimited</rate><weights>100</weights></work></works>"
                        + "<monitor><interval>250</interval><exporters><node>" + exporters.node() + "</node><process>"
                        + exporters.process() + "</process><mysqld>" + exporters.mysqld() + "</mysqld></exporters>"
                        + "</monitor></parameters>");
        Path run = dir.resolve("run");
        try (Connection c = DriverManager.getConnection(
                        TestServers.mariadbUrl(), TestServers.mariadbUser(), TestServers.mariadbPassword());
                Target target = Targets.open(TestServers.mariadb())) {
            createTable(c);
            Map<String, Double> before = status(c);
            try (RunMonitor monitor = RunMonitor.start(config, target, run, () -> 0);
                    PreparedStatement insert =
                            c.prepareStatement("INSERT INTO exporter_it VALUES (?, REPEAT('x', 200))")) {
                AtomicInteger i = new AtomicInteger();
                Await.until(
                        "100 inserts and 3 rows in monitor.csv",
                        Duration.ofSeconds(120),
                        Duration.ZERO,
                        () -> {
                            insert.setInt(1, i.incrementAndGet());
                            insert.executeUpdate();
                            return new RunProgress(i.get(), rows(run.resolve("monitor.csv")));
                        },
                        p -> p.inserts() >= 100 && p.monitorRows() >= 3);
            }
            double truth = status(c).get("Com_insert") - before.get("Com_insert");
            MonitorCsv table = new MonitorCsv(run.resolve("monitor.csv"));
            assertTrue(table.rows.stream().allMatch(r -> r.get("source").equals("exporter")));
            assertEquals(truth, sum(table, "db.Com_insert"));
            assertTrue(table.rows.stream().anyMatch(r -> !r.get("proc.cpu_pct").isEmpty()));
        }
    }
}
