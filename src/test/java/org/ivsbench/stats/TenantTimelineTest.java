package org.ivsbench.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TenantTimelineTest {
    @TempDir
    Path dir;

    private void samples(String tenant, String... rows) throws Exception {
        Path sub = Files.createDirectories(dir.resolve(tenant));
        StringBuilder b = new StringBuilder(SamplesCsvWriter.HEADER);
        if (!SamplesCsvWriter.HEADER.endsWith("\n")) {
            b.append('\n');
        }
        for (String r : rows) {
            b.append(r).append('\n');
        }
        Files.writeString(sub.resolve("samples.csv"), b.toString());
    }

    /** A samples.csv row: window start, phase, type, ok count and p99; the other columns filled plausibly. */
    private static String row(long time, int phase, String type, int ok, int p99) {
        String lat = ok == 0 ? ",,,," : "10,5,8," + p99 + "," + (p99 + 1);
        return time + ",1000," + phase + "," + type + "," + ok + ",0,0,0,0," + ok + ".0," + ok + ".0," + lat + ","
                + (ok == 0 ? "," : "9," + p99) + ",1000,,";
    }

    @Test
    void allRowsOfEveryTenantOnOneTimelineWithTheActiveTenantsPerWindow() throws Exception {
        samples(
                "reads",
                row(1000, 0, "ReadRecord", 10, 300),
                row(1000, 0, "ALL", 10, 300),
                row(2000, 0, "ALL", 10, 900),
                row(3000, 0, "ALL", 10, 350));
        samples("extends", row(1000, 0, "ALL", 0, 0), row(2000, 1, "ALL", 50, 4000), row(3000, 2, "ALL", 0, 0));

        Path file = TenantTimeline.write(dir, List.of("reads", "extends"));

        List<String> lines = Files.readAllLines(file);
        assertEquals(TenantTimeline.HEADER, lines.get(0));
        assertEquals(
                List.of(
                        "1000,reads,0,10,300,1",
                        "1000,extends,0,0,,1",
                        "2000,reads,0,10,900,2",
                        "2000,extends,1,50,4000,2",
                        "3000,reads,0,10,350,1",
                        "3000,extends,2,0,,1"),
                lines.subList(1, lines.size()).stream()
                        .map(TenantTimelineTest::key)
                        .toList());
        assertTrue(lines.stream().noneMatch(l -> l.contains("ReadRecord")));
        assertTrue(Files.notExists(dir.resolve(TenantTimeline.FILE + ".tmp")));
    }

    /** time, tenant, phase, ok, p99 and active_tenants of a tenants.csv line. */
    private static String key(String line) {
        List<String> h = List.of(TenantTimeline.HEADER.split(","));
        String[] f = line.split(",", -1);
        return String.join(
                ",",
                f[h.indexOf("time_ms")],
                f[h.indexOf("tenant")],
                f[h.indexOf("phase")],
                f[h.indexOf("ok")],
                f[h.indexOf("lat_p99_us")],
                f[h.indexOf("active_tenants")]);
    }

    @Test
    void aTenantWithoutSamplesAddsNoRows() throws Exception {
        samples("reads", row(1000, 0, "ALL", 10, 300));
        Files.createDirectories(dir.resolve("failed"));

        List<String> lines = Files.readAllLines(TenantTimeline.write(dir, List.of("reads", "failed")));

        assertEquals(2, lines.size());
        assertTrue(lines.get(1).startsWith("1000,1000,reads,"));
    }

    @Test
    void aSamplesFileWithoutAColumnIsAnError() throws Exception {
        Files.createDirectories(dir.resolve("x"));
        Files.writeString(dir.resolve("x/samples.csv"), "time_ms,phase,type\n1000,0,ALL\n");

        IOException e = assertThrows(IOException.class, () -> TenantTimeline.write(dir, List.of("x")));
        assertTrue(e.getMessage().contains("window_ms"), e.getMessage());
    }
}
