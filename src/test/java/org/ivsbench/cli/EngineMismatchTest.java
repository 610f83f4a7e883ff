package org.ivsbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.CliArgs;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * summary.json states the table's engine: a run whose table was created with another engine than the config
 * names (an earlier --create with another config) must not run under the wrong label.
 */
class EngineMismatchTest {
    @TempDir
    Path tmp;

    private Path config(String engine) throws Exception {
        Path f = tmp.resolve(engine + ".xml");
        Files.writeString(
                f,
                "<parameters>" + RunHarness.mariadbConnection() + "<engine>" + engine + "</engine>"
                        + "<table>engine_check</table><terminals>1</terminals><recordcount>20</recordcount>"
                        + "<monitor><enabled>false</enabled></monitor>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><count>10</count><rate>unlimited</rate><weights>100</weights></work></works>"
                        + "</parameters>");
        return f;
    }

    @Test
    void aTableOfAnotherEngineIsRefusedBeforeTheRun() throws Exception {
        Path results = tmp.resolve("results");
        CliHarness.Result created = CliHarness.run(CliArgs.createLoadExecute(config("RocksDB"), results));
        assertEquals(0, created.code(), created.err());

        Path other = tmp.resolve("other");
        CliHarness.Result r =
                CliHarness.run("-b", "ycsbivs", "-c", config("InnoDB").toString(), "--execute", "-d", other.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("table engine_check uses the ROCKSDB engine, but <engine> is InnoDB"), r.err());
        try (var s = Files.list(other)) {
            assertFalse(s.findAny().isPresent(), "no results folder for a run that did not run");
        }

        // With --create the table is re-created with the configured engine and the run goes ahead.
        CliHarness.Result recreated = CliHarness.run(
                "-b",
                "ycsbivs",
                "-c",
                config("InnoDB").toString(),
                "--create",
                "--load",
                "--execute",
                "--clear",
                "-d",
                other.toString());
        assertEquals(0, recreated.code(), recreated.err());
        CliHarness.run("-b", "ycsbivs", "-c", config("InnoDB").toString(), "--clear");
    }
}
