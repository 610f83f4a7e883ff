package org.ivsbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input to the tenants subcommand: one line naming the tenant and the value, exit 2, nothing written. */
class TenantsCliTest {
    @TempDir
    Path tmp;

    private Path sqliteConfig(String name, String extra) throws Exception {
        Path f = tmp.resolve(name + ".xml");
        Files.writeString(
                f,
                "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve(name + ".db") + "</url>"
                        + "<recordcount>10</recordcount><transactiontypes><transactiontype><name>ReadRecord</name>"
                        + "</transactiontype></transactiontypes><works><work><time>1</time><rate>10</rate>"
                        + "<weights>100</weights></work></works>" + extra + "</parameters>");
        return f;
    }

    private void rejected(String expected, String... args) {
        Path results = tmp.resolve("results");
        String[] all = new String[args.length + 4];
        all[0] = "tenants";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--execute";
        all[args.length + 2] = "-d";
        all[args.length + 3] = results.toString();
        CliHarness.Result r = CliHarness.run(all);
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(Files.exists(results), "nothing written");
        assertFalse(Files.exists(tmp.resolve("a.db")), "no database touched");
    }

    @Test
    void badTenantsAreRejectedBeforeAnyDatabase() throws Exception {
        Path a = sqliteConfig("a", "");
        rejected("at least two tenants", "a:ycsbivs:" + a);
        rejected("expected NAME:BENCH:FILE", "a:ycsbivs:" + a, "b-ycsbivs");
        rejected("unknown benchmark 'nosuch'", "a:ycsbivs:" + a, "b:nosuch:" + a);
        rejected("given twice", "a:ycsbivs:" + a, "A:ycsbivs:" + a);
        rejected("name '../x'", "a:ycsbivs:" + a, "../x:ycsbivs:" + a);
        rejected(
                "tenant b: config '" + tmp.resolve("missing.xml") + "' does not exist",
                "a:ycsbivs:" + a,
                "b:ycsbivs:" + tmp.resolve("missing.xml"));
    }

    @Test
    void aBadConfigIsNamedWithItsTenant() throws Exception {
        Path a = sqliteConfig("a", "");
        Path bad = sqliteConfig("bad", "<nosuchelement>1</nosuchelement>");
        rejected("tenant b: ", "a:ycsbivs:" + a, "b:ycsbivs:" + bad);
        Path sweep = sqliteConfig("sweep", "<sweep><terminals>1,2</terminals></sweep>");
        rejected("tenant b: " + sweep + ": <sweep> is not supported", "a:ycsbivs:" + a, "b:ycsbivs:" + sweep);
    }

    @Test
    void twoSqliteTenantsRunOnOneTimeline() throws Exception {
        Path a = sqliteConfig("a", "");
        Path b = sqliteConfig("b", "");
        Path results = tmp.resolve("results");

        CliHarness.Result r = CliHarness.run(
                "tenants",
                "a:ycsbivs:" + a,
                "b:ycsbivs:" + b,
                "--create",
                "--load",
                "--execute",
                "-d",
                results.toString());

        assertEquals(0, r.code(), r.err());
        try (var dirs = Files.list(results)) {
            Path run = dirs.findFirst().orElseThrow();
            assertTrue(run.getFileName().toString().startsWith("tenants_"), run.toString());
            for (String f : new String[] {"a/summary.json", "b/summary.json", "tenants.csv", "tenants.json"}) {
                assertTrue(Files.isRegularFile(run.resolve(f)), f);
            }
            assertTrue(
                    Files.readString(run.resolve("a/summary.json")).contains("\"complete\" : true")
                            || Files.readString(run.resolve("a/summary.json")).contains("\"complete\":true"),
                    "a completed");
        }
        assertTrue(r.out().contains("Tenant a:") && r.out().contains("Tenant b:"), r.out());
    }
}
