package org.ivsbench.monitor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.ExportersConfig;
import org.ivsbench.config.MonitorConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.Await;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exporter-fed monitor against the private PostgreSQL and its private postgres_exporter, beside the built-in
 * sampler in the same run: the same columns, and tup_inserted / tup_updated of this database equal to the
 * server's own pg_stat_database deltas (neither monitor inserts or updates a row).
 */
class ExporterMonitorPostgresTest {
    private static final long INTERVAL = 250;
    private static final int INSERTS = 500;

    @TempDir
    Path dir;

    /** This database's row of pg_stat_database, after the statistics flush (see below). */
    private static Map<String, Double> stats(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            // Backends report at most once a second and at idle: wait for the counters to stop moving.
            AtomicReference<Map<String, Double>> previous = new AtomicReference<>();
            return Await.until(
                    "pg_stat_database's tup_inserted and tup_updated to stop moving",
                    Duration.ofSeconds(60),
                    Duration.ofMillis(1500),
                    () -> {
                        st.execute("SELECT pg_stat_clear_snapshot()");
                        try (ResultSet rs = st.executeQuery("SELECT tup_inserted, tup_updated FROM pg_stat_database"
                                + " WHERE datname = current_database()")) {
                            rs.next();
                            return Map.of("tup_inserted", rs.getDouble(1), "tup_updated", rs.getDouble(2));
                        }
                    },
                    now -> now.equals(previous.getAndSet(now)));
        }
    }

    /** Statements run so far and the rows each monitor has written. */
    private record Progress(int statements, int builtInRows, int exporterRows) {}

    private static int rows(Path csv) throws Exception {
        return Files.exists(csv) ? Math.max(0, Files.readAllLines(csv).size() - 1) : 0;
    }

    @Test
    void exporterAndBuiltInMonitorsOfOneRunHaveTheSameColumnsAndTheServersCounterDeltas() throws Exception {
        ExportersConfig exporters = new ExportersConfig(
                TestServers.exporterUrl("node"),
                TestServers.exporterUrl("process"),
                null,
                TestServers.exporterUrl("postgres"),
                null,
                null);
        TargetKind kind = TargetKinds.of("POSTGRESQL");
        try (Connection c = DriverManager.getConnection(
                        TestServers.postgresUrl(), TestServers.postgresUser(), TestServers.postgresPassword());
                Target target = Targets.open(TestServers.postgres())) {
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS exporter_it");
                // No autovacuum: its ANALYZE writes pg_statistic rows, which pg_stat_database would count too.
                st.execute("CREATE TABLE exporter_it (k INT PRIMARY KEY, v TEXT) WITH (autovacuum_enabled = false)");
            }
            MonitorConfig config = new MonitorConfig(true, INTERVAL, null, null, TestServers.postgresPidFile());
            Path builtInCsv = dir.resolve("builtin/monitor.csv");
            Path exporterCsv = dir.resolve("exporter/monitor.csv");
            CounterSource kindCounters = CounterSource.of(target);
            Map<String, Double> before = stats(c);
            AtomicInteger inserted = new AtomicInteger();
            try (ResourceMonitor builtIn = ResourceMonitor.start(
                            config, kindCounters, CounterSelection.defaults(kind), builtInCsv, () -> 0);
                    ResourceMonitor fromExporters = ResourceMonitor.start(
                            config,
                            ExporterSources.host(exporters, "postgres"),
                            null,
                            ExporterSources.counters(exporters, kind, kindCounters, TestServers.postgresUrl()),
                            CounterSelection.defaults(kind),
                            exporterCsv,
                            () -> 0,
                            ExporterSources.SOURCE)) {
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO exporter_it VALUES (?, 'x')");
                        PreparedStatement update = c.prepareStatement("UPDATE exporter_it SET v = 'y' WHERE k = ?")) {
                    // Counts, not times: the monitors tick meanwhile; a few rows each before it ends.
                    Await.until(
                            INSERTS + " inserts and updates and 4 rows from each monitor",
                            Duration.ofSeconds(120),
                            Duration.ZERO,
                            () -> {
                                insert.setInt(1, inserted.incrementAndGet());
                                insert.executeUpdate();
                                update.setInt(1, inserted.get());
                                update.executeUpdate();
                                return new Progress(inserted.get(), rows(builtInCsv), rows(exporterCsv));
                            },
                            p -> p.statements() >= INSERTS && p.builtInRows() >= 4 && p.exporterRows() >= 4);
                }
                // Both monitors must see the backend's last report before they close: it comes within a second.
                Map<String, Double> settled = stats(c);
                assertTrue(settled.get("tup_inserted") - before.get("tup_inserted") >= inserted.get());
                int seen = rows(exporterCsv);
                Await.until(
                        "two more rows from each monitor than the exporter's " + seen,
                        Duration.ofSeconds(60),
                        Duration.ofMillis(INTERVAL),
                        () -> new Progress(inserted.get(), rows(builtInCsv), rows(exporterCsv)),
                        p -> p.exporterRows() >= seen + 2 && p.builtInRows() >= seen + 2);
            }
            Map<String, Double> after = stats(c);
            int i = inserted.get();

            MonitorCsv b = new MonitorCsv(builtInCsv);
            MonitorCsv e = new MonitorCsv(exporterCsv);
            Set<String> builtInColumns = new TreeSet<>(b.header);
            Set<String> exporterColumns = new TreeSet<>(e.header);
            assertEquals(
                    builtInColumns, exporterColumns, "the same columns from exporters as from the built-in sampler");
            for (String name : new String[] {"tup_inserted", "tup_updated"}) {
                double truth = after.get(name) - before.get(name);
                assertEquals(i, truth, name + ": one row per statement");
                String column = "db.pg_stat_database." + name;
                assertEquals(truth, sum(e, column), name + " from postgres_exporter = the server's own delta");
                assertEquals(truth, sum(b, column), name + " from the built-in sampler = the server's own delta");
            }
            assertTrue(
                    e.rows.stream().anyMatch(r -> !r.get("proc.cpu_pct").isEmpty()),
                    "proc.cpu_pct from process-exporter");
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
}
