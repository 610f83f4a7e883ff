package org.ivsbench.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SweepSectionTest {
    @TempDir
    Path tmp;

    private BenchmarkConfig load(String works, String sweep) throws Exception {
        Path file = tmp.resolve("c.xml");
        Files.writeString(
                file,
                "<parameters><type>SQLITE</type><url>jdbc:sqlite:x.db</url><terminals>2</terminals>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works>" + works + "</works>" + sweep + "</parameters>");
        return YcsbIvsNames.load(file);
    }

    @Test
    void parsesListsTrialsAndReload() throws Exception {
        BenchmarkConfig c = load(
                "<work><time>5</time><weights>100</weights></work>"
                        + "<work><count>100</count><weights>100</weights></work>",
                "<sweep><terminals>1, 2,4,512</terminals><counts>1000,100000</counts><trials>3</trials>"
                        + "<reload>true</reload></sweep>");
        assertEquals(new SweepConfig(List.of(1, 2, 4, 512), List.of(1000L, 100000L), 3, true), c.sweep());
        assertEquals(24, c.sweep().points());
    }

    @Test
    void defaultsToOneTrialWithoutReloadAndKeepsWhatIsNotSwept() throws Exception {
        BenchmarkConfig c =
                load("<work><time>5</time><weights>100</weights></work>", "<sweep><terminals>1,8</terminals></sweep>");
        assertEquals(List.of(), c.sweep().counts());
        assertEquals(1, c.sweep().trials());
        assertFalse(c.sweep().reload());
    }

    @Test
    void absentSectionIsNull() throws Exception {
        assertNull(load("<work><time>5</time><weights>100</weights></work>", "").sweep());
    }

    @Test
    void presetsSayWhatTheirCommentsClaim() throws Exception {
        Map<String, String> env = Map.of("IVS_MARIADB_PASSWORD", "ivs");
        for (String w : List.of("a", "b")) {
            for (String db : List.of("mariadb", "cassandra", "mongodb")) {
                BenchmarkConfig grid =
                        YcsbIvsNames.load(Path.of("config/sweeps/paper_grid_ycsb_" + w + "_" + db + ".xml"), env);
                assertEquals("4000000", grid.parameters().get("recordcount"));
                assertEquals(
                        List.of(1, 2, 4, 8, 16, 32, 64, 128, 256, 512),
                        grid.sweep().terminals());
                assertEquals(
                        List.of(1000L, 10000L, 100000L, 1000000L), grid.sweep().counts());
                assertEquals(120, grid.sweep().points());
            }
            List<Double> weights = w.equals("a") ? List.of(50.0, 50.0) : List.of(95.0, 5.0);
            for (String db : List.of("sqlite", "mariadb", "cassandra", "mongodb")) {
                BenchmarkConfig c = YcsbIvsNames.load(Path.of("config/sweeps/ycsb_" + w + "_" + db + ".xml"), env);
                assertEquals(weights, c.phases().get(0).weights());
                assertEquals("zipfian", c.phases().get(0).parameters().get("distribution"));
                assertEquals("10", c.parameters().get("fieldcount"));
                assertEquals("100", c.parameters().get("fieldlength"));
                assertEquals(24, c.sweep().points());
                assertTrue(c.sweep().reload());
            }
        }
        // The quick ones: the sweep docs/sweeps.md shows, 1..16 terminals x 3 trials of 10,000 operations.
        for (String db : List.of("mariadb", "cassandra", "mongodb")) {
            BenchmarkConfig q = YcsbIvsNames.load(Path.of("config/sweeps/ycsb_a_" + db + "_quick.xml"), env);
            assertEquals(new SweepConfig(List.of(1, 2, 4, 8, 16), List.of(10000L), 3, true), q.sweep());
            assertEquals("10000", q.parameters().get("recordcount"));
            assertEquals(List.of(50.0, 50.0), q.phases().get(0).weights());
        }
    }

    @Test
    void countsNeedExactlyOneCountPhase() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> load(
                        "<work><count>10</count><weights>100</weights></work><work><count>10</count><weights>100</weights>"
                                + "</work>",
                        "<sweep><counts>5</counts></sweep>"));
        assertEquals("sweep/counts", e.path());
        assertTrue(e.getMessage().contains("has 2 phases that end by count"), e.getMessage());
    }
}
