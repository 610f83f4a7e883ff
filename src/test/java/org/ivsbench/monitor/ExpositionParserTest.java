package org.ivsbench.monitor;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.ivsbench.monitor.ExpositionParser.Series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExpositionParserTest {

    @Test
    void readsSamplesLabelsAndSpecialValuesAndSkipsComments() {
        String text = "# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.\n"
                + "# TYPE node_cpu_seconds_total counter\n"
                + "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 13696.5\n"
                + "\n"
                + "mysql_global_status_innodb_data_read 2.70336e+06\n"
                + "weird{path=\"C:\\\\dir\",quote=\"say \\\"hi\\\"\",nl=\"a\\nb\",} 1 1700000000000\r\n"
                + "pg_stat_database_checksum_failures{datname=\"ivs\"} NaN\n"
                + "up{ a = \"1\" , b=\"x,y}\" } +Inf\n"
                + "down -Inf\n";
        List<Series> all = ExpositionParser.parse(text);
        assertEquals(6, all.size());
        assertEquals(new Series("node_cpu_seconds_total", Map.of("cpu", "0", "mode", "idle"), 13696.5), all.get(0));
        assertEquals(2703360.0, all.get(1).value());
        assertEquals("C:\\dir", all.get(2).label("path"));
        assertEquals("say \"hi\"", all.get(2).label("quote"));
        assertEquals("a\nb", all.get(2).label("nl"));
        assertEquals(1.0, all.get(2).value(), "the timestamp is not the value");
        assertTrue(Double.isNaN(all.get(3).value()));
        assertEquals("x,y}", all.get(4).label("b"));
        assertEquals(Double.POSITIVE_INFINITY, all.get(4).value());
        assertEquals(Double.NEGATIVE_INFINITY, all.get(5).value());
    }

    @Test
    void aMalformedLineIsAnErrorNamingItsNumber() {
        for (String bad : new String[] {
            "m{a=\"1\"", "m{a=1} 2", "m{a=\"1\" b=\"2\"} 3", "m 0x10", "m 1d", "m", "{a=\"1\"} 2", "m 1 2 3"
        }) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> ExpositionParser.parse("ok 1\n" + bad + "\n"));
            assertTrue(e.getMessage().startsWith("exposition line 2 "), bad + ": " + e.getMessage());
        }
    }
}
