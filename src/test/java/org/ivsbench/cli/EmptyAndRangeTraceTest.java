package org.ivsbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.CliArgs;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A traced run of the empty and range operations replays on a fresh SQLite database and on MariaDB to the
 * recorded read digests: range deletes are in the trace (op delete_range) and remove the same records there, and
 * range reads by start and end key (op scan_between) return the same records there; a section's range deletes
 * (op delete_between, by their two keys) too.
 */
class EmptyAndRangeTraceTest {
    @TempDir
    Path tmp;

    private static String config(String connection) {
        StringBuilder types = new StringBuilder("<transactiontypes>");
        for (String t : new String[] {
            "ReadRecord",
            "ScanRecord",
            "EmptyReadRecord",
            "EmptyDeleteRecord",
            "RangeReadRecord",
            "RangeDeleteRecord",
            "RangeReadByKeysRecord"
        }) {
            types.append("<transactiontype><name>").append(t).append("</name></transactiontype>");
        }
        return "<parameters>" + connection + "<terminals>1</terminals><randomSeed>11</randomSeed>"
                + "<recordcount>300</recordcount><fieldcount>2</fieldcount><fieldlength>20</fieldlength>"
                + "<keyorder>ordered</keyorder><keys><length>14</length></keys>"
                + "<rangelengthdistribution>uniform(min=1, max=8)</rangelengthdistribution>"
                + "<table>ranges</table><monitor><enabled>false</enabled></monitor>" + types
                + "</transactiontypes><works><work><count>400</count><rate>unlimited</rate>"
                + "<weights>25,10,20,20,15,5,5</weights></work></works></parameters>";
    }

    /** Range deletes and reads by keys in a section: its live keys decide the ranges; replay only repeats them. */
    private static String sectionConfig(String connection) {
        return "<parameters>" + connection + "<terminals>1</terminals><randomSeed>12</randomSeed>"
                + "<fieldcount>2</fieldcount><fieldlength>20</fieldlength><keyorder>ordered</keyorder>"
                + "<rangelengthdistribution>uniform(min=1, max=5)</rangelengthdistribution>"
                + "<sections><section><name>s</name><records>300</records></section></sections>"
                + "<table>ranges</table><monitor><enabled>false</enabled></monitor><transactiontypes>"
                + "<transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>RangeDeleteRecord</name></transactiontype>"
                + "<transactiontype><name>RangeReadByKeysRecord</name></transactiontype>"
                + "<transactiontype><name>InsertRecord</name></transactiontype></transactiontypes><works><work>"
                + "<count>300</count><rate>unlimited</rate><weights>30,20,30,20</weights></work></works></parameters>";
    }

    @Test
    void rangeDeletesReplayToTheRecordedDigests() throws Exception {
        replays(EmptyAndRangeTraceTest::config, "delete_range", "scan_between");
    }

    @Test
    void aSectionsRangeDeletesBetweenTwoKeysReplayToTheRecordedDigests() throws Exception {
        replays(EmptyAndRangeTraceTest::sectionConfig, "delete_between", "scan_between");
    }

    /** Traces a run of the config on SQLite, replays it on a fresh SQLite and on MariaDB: equal digests. */
    private void replays(UnaryOperator<String> config, String... ops) throws Exception {
        Path cfg = write("run.xml", config.apply(sqlite("run.db")));
        Path trace = tmp.resolve("run.trace.gz");
        CliHarness.Result r =
                CliHarness.run(CliArgs.createLoadExecute(cfg, tmp.resolve("results"), "--trace", trace.toString()));
        assertEquals(0, r.code(), r.err());

        String maria = "<type>MARIADB</type><url>" + TestServers.mariadbUrl() + "</url><username>"
                + TestServers.mariadbUser() + "</username><password>" + TestServers.mariadbPassword() + "</password>";
        for (String connection : new String[] {sqlite("fresh.db"), maria}) {
            Path target = write("target.xml", config.apply(connection));
            r = CliHarness.run(
                    "replay",
                    "--trace",
                    trace.toString(),
                    "-c",
                    target.toString(),
                    "-d",
                    tmp.resolve("replays").toString(),
                    "--create",
                    "--load",
                    "--timing",
                    "fast");
            assertEquals(0, r.code(), r.out() + r.err());
            assertTrue(r.out().contains("digests equal"), r.out());
        }
        try (Stream<Path> dirs = Files.list(tmp.resolve("replays"))) {
            for (Path d : dirs.toList()) {
                String summary = Files.readString(d.resolve("replay-summary.txt"));
                for (String op : ops) {
                    assertTrue(summary.contains("outcome " + op + " OK"), summary);
                }
            }
        }
    }

    private String sqlite(String file) {
        return "<type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve(file) + "</url>";
    }

    private Path write(String name, String text) throws IOException {
        Path p = tmp.resolve(name);
        Files.writeString(p, text);
        return p;
    }
}
