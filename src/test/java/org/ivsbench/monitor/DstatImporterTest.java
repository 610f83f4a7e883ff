package org.ivsbench.monitor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DstatImporterTest {
    @TempDir
    Path dir;

    @Test
    void importsDoolCsvWithEpochIntoMonitorColumns() throws IOException {
        Path in = dir.resolve("dool.csv");
        try (InputStream s = getClass().getResourceAsStream("dool.csv")) {
            Files.copy(s, in);
        }
        Path out = dir.resolve("monitor.csv");
        DstatImporter.importCsv(in, out);
        MonitorCsv csv = new MonitorCsv(out);

        assertEquals(
                List.of(
                        "time_ms",
                        "interval_ms",
                        "phase",
                        "source",
                        "os.cpu.usr_pct",
                        "os.cpu.sys_pct",
                        "os.cpu.idle_pct",
                        "os.cpu.iowait_pct",
                        "os.cpu.steal_pct",
                        "os.mem.used_bytes",
                        "os.mem.free_bytes",
                        "os.mem.cached_bytes",
                        "os.disk.read_bytes_ps",
                        "os.disk.write_bytes_ps",
                        "os.disk.read_ops_ps",
                        "os.disk.write_ops_ps",
                        "os.net.lo.rx_bytes_ps",
                        "os.net.lo.tx_bytes_ps",
                        "os.net.total.rx_bytes_ps",
                        "os.net.total.tx_bytes_ps"),
                csv.header);
        assertEquals(3, csv.rows.size(), "the since-boot first row is dropped");
        Map<String, String> r = csv.rows.get(0);
        // printed at ...001.409 about the second before it: the window starting at ...000.000
        assertEquals("1795380000000", r.get("time_ms"));
        assertEquals("1000", r.get("interval_ms"));
        assertEquals("", r.get("phase"));
        assertEquals("dstat", r.get("source"));
        assertEquals(20.5, MonitorCsv.num(r, "os.cpu.usr_pct"));
        assertEquals(10.0, MonitorCsv.num(r, "os.cpu.sys_pct"));
        assertEquals(60.0, MonitorCsv.num(r, "os.cpu.idle_pct"));
        assertEquals(9.5, MonitorCsv.num(r, "os.cpu.iowait_pct"));
        assertEquals(0.0, MonitorCsv.num(r, "os.cpu.steal_pct"));
        assertEquals(1.1e9, MonitorCsv.num(r, "os.mem.used_bytes"));
        assertEquals(4e8, MonitorCsv.num(r, "os.mem.free_bytes"));
        assertEquals(2.01e9, MonitorCsv.num(r, "os.mem.cached_bytes"), "buff + cach");
        assertEquals(4096000.0, MonitorCsv.num(r, "os.disk.read_bytes_ps"));
        assertEquals(1024000.0, MonitorCsv.num(r, "os.disk.write_bytes_ps"));
        assertEquals(100.0, MonitorCsv.num(r, "os.disk.read_ops_ps"));
        assertEquals(25.0, MonitorCsv.num(r, "os.disk.write_ops_ps"));
        assertEquals(50000.0, MonitorCsv.num(r, "os.net.lo.rx_bytes_ps"));
        assertEquals(70000.0, MonitorCsv.num(r, "os.net.total.tx_bytes_ps"));
        assertEquals("1795380001000", csv.rows.get(1).get("time_ms"));
        assertEquals(1.0, MonitorCsv.num(csv.rows.get(1), "os.cpu.steal_pct"));
        assertEquals("1795380002000", csv.rows.get(2).get("time_ms"));
    }

    @Test
    void importsDstat074WithoutEpochFromTheTimeColumn() throws IOException {
        Path in = dir.resolve("dstat.csv");
        Files.writeString(
                in,
                String.join(
                        "\n",
                        "\"Dstat 0.7.4 CSV output\"",
                        "\"Author:\",\"Dag Wieers <dag@wieers.com>\",,,,\"URL:\",\"http://dag.wieers.com/home-made/dstat/\"",
                        "\"Host:\",\"db1\",,,,\"User:\",\"root\"",
                        "\"Cmdline:\",\"dstat -t -c -d --output dstat.csv 2\",,,,\"Date:\",\"22 Nov 2026 20:36:31 UTC\"",
                        "",
                        "\"system\",\"total cpu usage\",,,,,,\"dsk/total\",",
                        "\"time\",\"usr\",\"sys\",\"idl\",\"wai\",\"hiq\",\"siq\",\"read\",\"writ\"",
                        "22-11 20:36:31,1,1,97,1,0,0,10,10",
                        "22-11 20:36:33,10,5,80,3,1,1,2048,4096",
                        "22-11 20:36:35,12,6,78,2,1,1,0,0",
                        ""));
        Path out = dir.resolve("monitor.csv");
        DstatImporter.importCsv(in, out);
        MonitorCsv csv = new MonitorCsv(out);
        assertEquals(2, csv.rows.size());
        Map<String, String> r = csv.rows.get(0);
        long printed = LocalDateTime.of(2026, 11, 22, 20, 36, 33)
                .atZone(ZoneId.systemDefault())
                .toInstant()
                .toEpochMilli();
        // measured [:31, :33): its middle :32 falls in the 2 s window that starts at a multiple of 2000 ms
        assertEquals(Math.floorDiv(printed - 1000, 2000) * 2000, Long.parseLong(r.get("time_ms")));
        assertEquals("2000", r.get("interval_ms"));
        assertEquals(7.0, MonitorCsv.num(r, "os.cpu.sys_pct"), "sys + hiq + siq");
        assertEquals(2048.0, MonitorCsv.num(r, "os.disk.read_bytes_ps"));
    }

    @Test
    void refusesAFileThatIsNotDstat() throws IOException {
        Path in = dir.resolve("x.csv");
        Files.writeString(in, "a,b\n1,2\n");
        IOException e = assertThrows(IOException.class, () -> DstatImporter.importCsv(in, dir.resolve("m.csv")));
        assertTrue(e.getMessage().contains("no dstat/dool column header"));
    }
}
