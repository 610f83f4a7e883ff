package org.ivsbench.monitor;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.db.TargetKinds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The exporter-name -> built-in-name mapping of docs/monitor-exporters.md, on exporter output as it comes. */
class ExporterCountersTest {
    private static final ExporterScraper UNUSED =
            new ExporterScraper("http://127.0.0.1:1/metrics", null, null, Duration.ofSeconds(1));

    private static ExporterCounters counters(ExporterCounters.Flavour flavour, String kind, String database) {
        return new ExporterCounters(
                UNUSED,
                flavour,
                database,
                TargetKinds.of(kind).defaultCounters().keySet(),
                n -> false);
    }

    @Test
    void mysqldExporterNamesBecomeShowGlobalStatusNames() {
        String text = "mysql_global_status_commands_total{command=\"select\"} 12\n"
                + "mysql_global_status_handlers_total{handler=\"read_key\"} 4\n"
                + "mysql_global_status_buffer_pool_pages{state=\"data\"} 296\n"
                + "mysql_global_status_buffer_pool_pages{state=\"free\"} 7816\n"
                + "mysql_global_status_buffer_pool_pages{state=\"misc\"} 80\n"
                + "mysql_global_status_buffer_pool_dirty_pages 3\n"
                + "mysql_global_status_buffer_pool_page_changes_total{operation=\"flushed\"} 9\n"
                + "mysql_global_status_buffer_pool_page_changes_total{operation=\"lru_flushed\"} 1\n"
                + "mysql_global_status_innodb_data_read 2.70336e+06\n"
                + "mysql_global_status_questions 12\n"
                + "mysql_global_status_rocksdb_block_cache_add 2\n"
                + "mysql_global_status_connection_errors_total{error=\"accept\"} 0\n"
                + "mysql_global_status_wsrep_cluster_status{status=\"x\"} 1\n"
                + "mysql_global_variables_innodb_buffer_pool_size 1.34217728e+08\n"
                + "mysql_up 1\n";
        Map<String, Double> m =
                counters(ExporterCounters.Flavour.MYSQLD, "MARIADB", null).map(ExpositionParser.parse(text));
        assertEquals(12.0, m.get("Com_select"));
        assertEquals(4.0, m.get("Handler_read_key"));
        assertEquals(296.0, m.get("Innodb_buffer_pool_pages_data"));
        assertEquals(3.0, m.get("Innodb_buffer_pool_pages_dirty"));
        assertEquals(9.0, m.get("Innodb_buffer_pool_pages_flushed"));
        assertEquals(1.0, m.get("Innodb_buffer_pool_pages_lru_flushed"), "not a default: first letter capital");
        assertEquals(2703360.0, m.get("Innodb_data_read"));
        assertEquals(12.0, m.get("Questions"));
        assertEquals(2.0, m.get("Rocksdb_block_cache_add"));
        assertEquals(0.0, m.get("Connection_errors_accept"));
        assertEquals(296.0 + 7816 + 80, m.get("Innodb_buffer_pool_pages_total"), "data + free + misc");
        assertEquals(13, m.size(), "variables, labelled families without a status name and mysql_up left out: " + m);
    }

    @Test
    void postgresExporterNamesBecomeViewDotColumnForTheTargetsDatabase() {
        String text = "pg_stat_database_xact_commit{datid=\"1\",datname=\"ivs\",server=\"h:5432\"} 10\n"
                + "pg_stat_database_xact_commit{datid=\"2\",datname=\"other\",server=\"h:5432\"} 99\n"
                + "pg_stat_database_checksum_failures{datid=\"1\",datname=\"ivs\",server=\"h:5432\"} NaN\n"
                + "pg_stat_database_conflicts_confl_lock{datid=\"1\",datname=\"ivs\",server=\"h:5432\"} 0\n"
                + "pg_stat_database_conflicts{datid=\"1\",datname=\"ivs\",server=\"h:5432\"} 1\n"
                + "pg_stat_database_stats_reset{datid=\"1\",datname=\"ivs\",server=\"h:5432\"} 5\n"
                + "pg_stat_bgwriter_buffers_alloc_total{server=\"h:5432\"} 1900\n"
                + "pg_stat_bgwriter_stats_reset_total{server=\"h:5432\"} 1.7e+09\n"
                + "pg_database_size_bytes{datname=\"ivs\",server=\"h:5432\"} 7.683431e+06\n"
                + "pg_database_size_bytes{datname=\"other\",server=\"h:5432\"} 1\n"
                + "ivsbench_statements_calls{kind=\"insert\",server=\"h:5432\"} 500\n"
                + "ivsbench_statements_calls{kind=\"select\",server=\"h:5432\"} 7\n"
                + "ivsbench_statements_calls{kind=\"<insufficient\",server=\"h:5432\"} 36\n"
                + "ivsbench_statements_rows{kind=\"insert\",server=\"h:5432\"} 500\n"
                + "ivsbench_tables_n_live_tup{server=\"h:5432\"} 2000\n"
                + "ivsbench_tables_n_dead_tup{server=\"h:5432\"} 12\n";
        Map<String, Double> m =
                counters(ExporterCounters.Flavour.POSTGRES, "POSTGRESQL", "ivs").map(ExpositionParser.parse(text));
        assertEquals(
                Map.of(
                        "pg_stat_database.xact_commit", 10.0,
                        "pg_stat_database.conflicts", 1.0,
                        "pg_stat_bgwriter.buffers_alloc", 1900.0,
                        "pg_database_size", 7683431.0,
                        "pg_stat_statements.calls_insert", 500.0,
                        "pg_stat_statements.calls_select", 7.0,
                        "pg_stat_statements.rows_insert", 500.0,
                        "pg_stat_statements.calls", 507.0,
                        "pg_stat_user_tables.n_live_tup", 2000.0,
                        "pg_stat_user_tables.n_dead_tup", 12.0),
                m);
    }

    @Test
    void kindsComeFromTheGivenPredicateAndPostgresNeedsADatabase() {
        ExporterCounters c = new ExporterCounters(
                UNUSED, ExporterCounters.Flavour.MYSQLD, null, List.of(), "Threads_connected"::equals);
        assertEquals(true, c.isGauge("Threads_connected"));
        assertFalse(c.isGauge("Com_select"));
        assertThrows(
                IllegalArgumentException.class, () -> counters(ExporterCounters.Flavour.POSTGRES, "POSTGRESQL", " "));
    }

    @Test
    void theDatabaseOfAJdbcUrl() {
        assertEquals("ivsbench", ExporterSources.databaseOf("jdbc:postgresql://127.0.0.1:25432/ivsbench"));
        assertEquals("db", ExporterSources.databaseOf("jdbc:postgresql://h1:5432,h2:5432/db?ssl=true"));
        assertEquals(null, ExporterSources.databaseOf("jdbc:postgresql://h:5432/"));
        assertEquals(null, ExporterSources.databaseOf("jdbc:postgresql://h:5432?x=/y"));
        assertEquals(null, ExporterSources.databaseOf("jdbc:postgresql:db"));
    }
}
