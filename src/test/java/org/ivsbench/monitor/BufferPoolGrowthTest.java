package org.ivsbench.monitor;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.cli.Main;
import org.ivsbench.testsupport.CliArgs;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What YCSB-IVS is about, seen by the monitor: a table that starts well inside a tiny buffer pool (a private
 * MariaDB started with 8 MB) grows past it through EXTENDs, and the same uniform reads that needed no page
 * reads before need about one or more per query after. Real server, real command line, monitor.csv as written.
 */
class BufferPoolGrowthTest {
    @TempDir
    Path tmp;

    private static String run(String command, Path state, int port) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("scripts/mariadb.sh", command).redirectErrorStream(true);
        pb.environment().put("IVS_STATE_DIR", state.toString());
        pb.environment().put("IVS_MARIADB_BASE_PORT", Integer.toString(port));
        pb.environment().put("IVS_MARIADB_BUFFER_POOL", "8M");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(
                p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, "scripts/mariadb.sh " + command + ": " + out);
        return out;
    }

    @Test
    void readsStartHittingTheDiskWhenExtendsGrowTheTablePastTheBufferPool() throws Exception {
        TestServers.mariadbUrl(); // the private server's tools are installed (fails with instructions if not)
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path state = tmp.resolve("small-pool");
        run("start", state, port);
        try {
            Path cfg = tmp.resolve("growth.xml");
            Files.writeString(
                    cfg,
                    "<parameters><type>MARIADB</type><url>jdbc:mariadb://127.0.0.1:" + port
                            + "/ivsbench</url><username>ivs</username><password>ivs</password><engine>InnoDB</engine>"
                            + "<table>growth</table><terminals>1</terminals><randomSeed>3</randomSeed>"
                            + "<recordcount>1000</recordcount><fieldlength>100</fieldlength>"
                            + "<extendfieldlength>4000</extendfieldlength><extendmethod>server</extendmethod>"
                            + "<monitor><interval>1000</interval></monitor>"
                            + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                            + "<transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes><works>"
                            // 1 MB of values: inside the 8 MB pool.
                            + "<work><time>3</time><rate>unlimited</rate><weights>100,0</weights></work>"
                            // + 10,000 x 4,000 bytes = 40 MB: five times the pool.
                            + "<work><count>10000</count><rate>unlimited</rate><weights>0,100</weights></work>"
                            + "<work><time>3</time><rate>unlimited</rate><weights>100,0</weights></work>"
                            + "</works></parameters>");
            Path results = tmp.resolve("results");
            assertEquals(0, Main.execute(CliArgs.createLoadExecute(cfg, results)));
            Path dir;
            try (Stream<Path> s = Files.list(results)) {
                dir = s.findFirst().orElseThrow();
            }
            JsonNode phases = new ObjectMapper()
                    .readTree(dir.resolve("summary.json").toFile())
                    .get("phases");
            MonitorCsv monitor = new MonitorCsv(dir.resolve("monitor.csv"));
            double[] reads = new double[3];
            double maxPoolPages = 0;
            for (Map<String, String> row : monitor.rows) {
                String phase = row.get("phase");
                if (!phase.isEmpty()) {
                    reads[Integer.parseInt(phase)] += MonitorCsv.num(row, "db.Innodb_buffer_pool_reads");
                }
                maxPoolPages = Math.max(maxPoolPages, MonitorCsv.num(row, "db.Innodb_buffer_pool_pages_total"));
            }
            assertTrue(maxPoolPages > 0 && maxPoolPages * 16384 <= 16 << 20, "a tiny pool: " + maxPoolPages + " pages");
            long before = phases.get(0).get("counts").get("ok").asLong();
            long after = phases.get(2).get("counts").get("ok").asLong();
            double perReadBefore = reads[0] / before;
            double perReadAfter = reads[2] / after;
            System.out.printf(
                    "buffer pool reads per ReadRecord: %.4f before the growth (%d reads), %.2f after (%d)%n",
                    perReadBefore, before, perReadAfter, after);
            assertTrue(before > 100 && after > 100, "reads ran: " + before + ", " + after);
            assertTrue(perReadBefore < 0.05, "the 1 MB table is served from the pool: " + perReadBefore);
            assertTrue(perReadAfter > 0.5, "the 41 MB table is not: " + perReadAfter);
        } finally {
            run("stop", state, port);
        }
    }
}
