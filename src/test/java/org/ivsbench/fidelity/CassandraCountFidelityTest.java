package org.ivsbench.fidelity;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.StatusCounters;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.db.cassandra.CassandraFixture;
import org.ivsbench.stats.OperationCounts;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the client reports must be what Cassandra did. The server counts, per table, the requests it coordinated
 * (system_views.coordinator_{read,write,scan}_latency): over the load and over each phase, every operation of
 * every type must show up there exactly. Reads: READ, the read of every EXTEND (skipped or not) and of every
 * READ-MODIFY-WRITE; writes: UPDATE, INSERT, DELETE, successful EXTENDs and the writes of successful
 * READ-MODIFY-WRITEs; scans: SCAN.
 */
class CassandraCountFidelityTest {
    private static final List<String> TYPES = List.of(
            "ReadRecord",
            "UpdateRecord",
            "InsertRecord",
            "ScanRecord",
            "ExtendRecord",
            "ReadModifyWriteRecord",
            "DeleteRecord");

    @TempDir
    Path dir;

    private String xml(String work) {
        StringBuilder types = new StringBuilder();
        for (String t : TYPES) {
            types.append("<transactiontype><name>").append(t).append("</name></transactiontype>");
        }
        return "<parameters>" + CassandraFixture.connection()
                + "<terminals>2</terminals><randomSeed>7</randomSeed><recordcount>300</recordcount>"
                + "<table>fidelity_cass</table><maxfieldlength>400</maxfieldlength><extendmethod>client</extendmethod>"
                + "<monitor><enabled>false</enabled></monitor>"
                + "<transactiontypes>" + types + "</transactiontypes><works>" + work + "</works></parameters>";
    }

    @Test
    void clientCountsEqualTheServersRequestCounts() throws Exception {
        BenchmarkModule module = RunHarness.module();
        List<String> works = List.of(
                "<work><count>1500</count><rate>unlimited</rate><weights>20,10,10,10,30,10,10</weights>"
                        + "<distribution>zipfian</distribution></work>",
                "<work><time>2</time><rate>300</rate><weights>50,0,0,0,50,0,0</weights>"
                        + "<distribution>uniform</distribution></work>");
        BenchmarkConfig base = RunHarness.config(dir, xml(works.get(0)));
        String prefix = base.target().url().replaceAll(".*/([A-Za-z0-9_]+).*", "$1") + ".fidelity_cass.count";
        try (Target target = Targets.open(base.target())) {
            StatusCounters counters = target.capability(StatusCounters.class).orElseThrow();
            module.create(base, target);
            Map<String, Double> beforeLoad = counters.snapshot();
            module.load(base, target, LoadProgress.NONE);
            assertEquals(300, target.countRecords("fidelity_cass"));
            assertEquals(300, delta(counters.snapshot(), beforeLoad, "coordinator_write." + prefix), "load writes");
            for (String work : works) {
                BenchmarkConfig c = RunHarness.config(dir, xml(work));
                Map<String, Double> before = counters.snapshot();
                PhaseSummary p = RunHarness.execute(module, c, target, dir).get(0);
                Map<String, Double> after = counters.snapshot();
                assertEquals(0, p.counts().error(), "no errors");
                assertTrue(p.counts().total() > 0);
                long reads = count(p, "ReadRecord").total()
                        + count(p, "ExtendRecord").total()
                        + count(p, "ReadModifyWriteRecord").total();
                long writes = count(p, "UpdateRecord").total()
                        + count(p, "InsertRecord").total()
                        + count(p, "DeleteRecord").total()
                        + count(p, "ExtendRecord").ok()
                        + count(p, "ReadModifyWriteRecord").ok();
                long scans = count(p, "ScanRecord").total();
                assertEquals(reads, delta(after, before, "coordinator_read." + prefix), work + ": reads");
                assertEquals(writes, delta(after, before, "coordinator_write." + prefix), work + ": writes");
                assertEquals(scans, delta(after, before, "coordinator_scan." + prefix), work + ": scans");
            }
        }
    }

    private static OperationCounts count(PhaseSummary p, String type) {
        var t = p.transactions().get(type);
        return t == null ? new OperationCounts(0, 0, 0, 0) : t.counts();
    }

    private static long delta(Map<String, Double> after, Map<String, Double> before, String name) {
        return Math.round(after.getOrDefault(name, 0.0) - before.getOrDefault(name, 0.0));
    }
}
