package org.ivsbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.CliArgs;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A sweep on the private MariaDB: 1, 2 and 4 threads x 2 trials, data re-loaded before every trial. */
class SweepMariaDbTest {
    @TempDir
    Path tmp;

    @Test
    void threeThreadCountsTimesTwoTrials() throws Exception {
        String url = TestServers.mariadbUrl();
        String xml = SweepCliTest.quickPreset("MARIADB", url, "1,2,4", "300", 2)
                .replace(
                        "<loaderThreads>",
                        "<username>" + TestServers.mariadbUser() + "</username><password>"
                                + TestServers.mariadbPassword() + "</password><loaderThreads>");
        Path config = tmp.resolve("maria.xml");
        Files.writeString(config, xml);
        Path results = tmp.resolve("results");

        CliHarness.Result r = CliHarness.run(CliArgs.createLoadExecute(config, results));

        assertEquals(0, r.code(), r.err());
        Path sweep = SweepCliTest.sweepFolder(results);
        List<String[]> rows = SweepCliTest.rows(sweep);
        assertEquals(7, rows.size());
        for (int i = 1; i < rows.size(); i++) {
            String[] row = rows.get(i);
            assertEquals("MARIADB", row[0]);
            assertEquals(String.valueOf(1 << ((i - 1) / 2)), row[3], "terminals");
            assertEquals("300", row[7], "operations");
            assertEquals("0", row[15], "errors");
        }
        assertEquals(5, r.out().split("Reloaded 200 records", -1).length - 1, r.out());
        assertTrue(
                Files.readString(sweep.resolve("t4-n300-trial2/summary.json")).contains("MARIADB"));
    }
}
