package org.ivsbench.fidelity;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.StatusCounters;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the client reports must be what PostgreSQL did, per phase, from pg_stat_statements (exact: a statement is
 * counted before its reply reaches the client; the monitor's own statements are left out). Client method: every
 * read and every extend is one SELECT (the extend's with FOR UPDATE), every extend one BEGIN, each successful one
 * an UPDATE of one row and a COMMIT, each skipped one a ROLLBACK. Server method: one UPDATE per extend, and one
 * SELECT only for an extend the guard refused.
 */
class PostgresCountFidelityTest {
    private static final String S = "pg_stat_statements.";

    @TempDir
    Path dir;

    private String xml(String method, String works) {
        return "<parameters>" + RunHarness.postgresConnection()
                + "<terminals>2</terminals><randomSeed>7</randomSeed><recordcount>300</recordcount>"
                + "<table>fidelity_pg_" + method + "</table>"
                + "<maxfieldlength>400</maxfieldlength><extendmethod>" + method + "</extendmethod>"
                + "<monitor><enabled>false</enabled></monitor>"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
                + "<works>" + works + "</works></parameters>";
    }

    private static String work(String length, String weights, String distribution) {
        return "<work>" + length + "<weights>" + weights + "</weights><distribution>" + distribution
                + "</distribution></work>";
    }

    private static long delta(Map<String, Double> before, Map<String, Double> after, String name) {
        return Math.round(after.getOrDefault(S + name, 0.0) - before.getOrDefault(S + name, 0.0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"client", "server"})
    void clientCountsEqualPgStatStatements(String method) throws Exception {
        BenchmarkModule module = RunHarness.module();
        List<String> works = List.of(
                work("<count>2000</count><rate>unlimited</rate>", "100,0", "uniform"),
                work("<time>2</time><rate>800</rate>", "100,0", "uniform"),
                work("<count>1500</count><rate>unlimited</rate>", "40,60", "zipfian"));
        BenchmarkConfig base = RunHarness.config(dir, xml(method, works.get(0)));
        try (Target target = Targets.open(base.target())) {
            StatusCounters counters = target.capability(StatusCounters.class).orElseThrow();
            module.create(base, target);
            module.load(base, target, LoadProgress.NONE);
            long skippedSeen = 0;
            for (String work : works) {
                BenchmarkConfig c = RunHarness.config(dir, xml(method, work));
                Map<String, Double> before = counters.snapshot();
                PhaseSummary p = RunHarness.execute(module, c, target, dir).get(0);
                Map<String, Double> after = counters.snapshot();
                long reads = p.transactions().get("ReadRecord").counts().total();
                var extend = p.transactions().get("ExtendRecord").counts();
                assertTrue(reads + extend.total() > 0);
                assertEquals(0, p.counts().error(), "no errors");
                assertEquals(0, extend.aborted(), "no aborts at READ COMMITTED");
                skippedSeen += extend.skipped();
                if (method.equals("client")) {
                    assertEquals(reads + extend.total(), delta(before, after, "calls_select"), work + ": SELECTs");
                    assertEquals(extend.total(), delta(before, after, "calls_begin"), work + ": BEGINs");
                    assertEquals(extend.ok(), delta(before, after, "calls_commit"), work + ": COMMITs");
                    assertEquals(extend.skipped(), delta(before, after, "calls_rollback"), work + ": ROLLBACKs");
                    assertEquals(extend.ok(), delta(before, after, "calls_update"), work + ": UPDATEs");
                } else {
                    assertEquals(reads + extend.skipped(), delta(before, after, "calls_select"), work + ": SELECTs");
                    assertEquals(extend.total(), delta(before, after, "calls_update"), work + ": UPDATEs");
                }
                assertEquals(extend.ok(), delta(before, after, "rows_update"), work + ": rows updated");
            }
            assertTrue(skippedSeen > 0, "the zipfian extends reached the cap: the skips were counted too");
            module.clear(base, target);
        }
    }
}
