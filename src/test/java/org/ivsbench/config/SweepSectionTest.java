package org.ivsbench.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepSectionTest {
    @TempDir
    Path tmp;

    private BenchmarkConfig load(String works, String sweep) throws Exception {
        Path file = tmp.resolve("c.xml");
        Files.writeString(file, "<parameters><type>SQLITE</type><url>jdbc:sqlite:x.db</url><terminals>2</terminals>"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                + "<works>" + works + "</works>" + sweep + "</parameters>");
        return YcsbIvsNames.load(file);
    }

    @Test
    void parsesListsTrialsAndReload() throws Exception {
        BenchmarkConfig c = load("<work><time>5</time><weights>100</weights></work>"
                + "<work><count>100</count><weights>100</weights></work>",
                "<sweep><terminals>1, 2,4,512</terminals><counts>1000,100000</counts><trials>3</trials>"
                        + "<reload>true</reload></sweep>");
        assertEquals(new SweepConfig(List.of(1, 2, 4, 512), List.of(1000L, 100000L), 3, true), c.sweep());
        assertEquals(24, c.sweep().points());
    }

    @Test
    void defaultsToOneTrialWithoutReloadAndKeepsWhatIsNotSwept() throws Exception {
        BenchmarkConfig c = load("<work><time>5</time><weights>100</weights></work>",
                "<sweep><terminals>1,8</terminals></sweep>");
        assertEquals(List.of(), c.sweep().counts());
        assertEquals(1, c.sweep().trials());
        assertFalse(c.sweep().reload());
    }

    @Test
    void absentSectionIsNull() throws Exception {
        assertNull(load("<work><time>5</time><weights>100</weights></work>", "").sweep());
    }

    @Test
    void countsNeedExactlyOneCountPhase() {
        ConfigException e = assertThrows(ConfigException.class, () -> load(
                "<work><count>10</count><weights>100</weights></work><work><count>10</count><weights>100</weights>"
                        + "</work>", "<sweep><counts>5</counts></sweep>"));
        assertEquals("sweep/counts", e.path());
        assertTrue(e.getMessage().contains("has 2 phases that end by count"), e.getMessage());
    }
}
