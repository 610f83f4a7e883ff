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
 * What the client reports must be what the server did: per phase, the READ count equals the server's
 * Com_select delta, and the extends that succeeded equal its Com_update delta (client extends also read
 * the field first, with one SELECT each, skipped or not).
 */
class ServerCountFidelityTest {
    @TempDir
    Path dir;

    private String xml(String engine, String works, String types) {
        return "<parameters>" + RunHarness.mariadbConnection()
                + "<terminals>2</terminals><randomSeed>7</randomSeed><recordcount>300</recordcount>"
                + "<engine>" + engine + "</engine><table>fidelity_" + engine.toLowerCase() + "</table>"
                + "<maxfieldlength>400</maxfieldlength><extendmethod>client</extendmethod>"
                + "<monitor><enabled>false</enabled></monitor>"
                + "<transactiontypes>" + types + "</transactiontypes><works>" + works + "</works></parameters>";
    }

    private static final String TYPES = "<transactiontype><name>ReadRecord</name></transactiontype>"
            + "<transactiontype><name>ExtendRecord</name></transactiontype>";

    @ParameterizedTest
    @ValueSource(strings = {"InnoDB", "RocksDB"})
    void clientCountsEqualServerStatementCounters(String engine) throws Exception {
        BenchmarkModule module = RunHarness.module();
        List<String> works = List.of(
                "<work><count>2000</count><rate>unlimited</rate><weights>100,0</weights><distribution>uniform</distribution></work>",
                "<work><time>2</time><rate>800</rate><weights>100,0</weights><distribution>uniform</distribution></work>",
                "<work><count>1500</count><rate>unlimited</rate><weights>40,60</weights><distribution>zipfian</distribution></work>");
        BenchmarkConfig base = RunHarness.config(dir, xml(engine, works.get(0), TYPES));
        try (Target target = Targets.open(base.target())) {
            StatusCounters counters = target.capability(StatusCounters.class).orElseThrow();
            module.create(base, target);
            module.load(base, target, LoadProgress.NONE);
            for (String work : works) {
                BenchmarkConfig c = RunHarness.config(dir, xml(engine, work, TYPES));
                Map<String, Double> before = counters.snapshot();
                PhaseSummary p = RunHarness.execute(module, c, target, dir).get(0);
                Map<String, Double> after = counters.snapshot();
                long selects = Math.round(after.get("Com_select") - before.get("Com_select"));
                long updates = Math.round(after.get("Com_update") - before.get("Com_update"));
                long reads = p.transactions().get("ReadRecord").counts().total();
                var extend = p.transactions().get("ExtendRecord").counts();
                assertTrue(reads + extend.total() > 0);
                assertEquals(0, p.counts().error(), "no errors");
                assertEquals(reads + extend.total(), selects, work + ": reads + extends vs Com_select");
                assertEquals(extend.ok(), updates, work + ": successful extends vs Com_update");
            }
        }
    }
}
