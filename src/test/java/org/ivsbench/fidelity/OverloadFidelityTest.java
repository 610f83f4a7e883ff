package org.ivsbench.fidelity;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.faults.Results;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Open loop past capacity must look overloaded, not healthy (BenchBase's coordinated omission): one
 * terminal doing MariaDB client extends (a few thousand per second at best on this box) is offered
 * 20,000 per second for 3 s. Response time (from the intended start) must be far above service time,
 * arrivals the backlog bound gave up on must be reported as missed, and every scheduled arrival must be
 * accounted for: completed + missed = rate x time exactly, in summary and samples.csv alike.
 */
class OverloadFidelityTest {
    private static final int RATE = 20_000;
    private static final int SECONDS = 3;

    @TempDir
    Path dir;

    @Test
    void overloadShowsAsQueueingAndMissedArrivalsAndLosesNoArrival() throws Exception {
        BenchmarkModule module = RunHarness.module();
        BenchmarkConfig config = RunHarness.config(
                dir,
                "<parameters>" + RunHarness.mariadbConnection()
                        + "<terminals>1</terminals><randomSeed>9</randomSeed><recordcount>200</recordcount>"
                        + "<table>overload_fidelity</table><extendmethod>client</extendmethod>"
                        + "<monitor><enabled>false</enabled></monitor>"
                        + "<transactiontypes><transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>" + SECONDS + "</time><rate>" + RATE + "</rate><arrival>regular</arrival>"
                        + "<weights>100</weights><distribution>uniform</distribution></work></works></parameters>");
        PhaseSummary p;
        try (Target target = Targets.open(config.target())) {
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            p = RunHarness.execute(module, config, target, dir).get(0);
        }
        long completed = p.counts().total();
        long scheduled = (long) RATE * SECONDS;
        assertEquals(0, p.counts().error(), "no errors: " + p.counts());
        assertTrue(completed < scheduled / 2, "really overloaded: " + completed + " of " + scheduled);
        assertTrue(p.missed() > 0, "missed arrivals are reported");
        // Exact: regular arrivals every 50 us over 3 s are 60,000 instants, and the open schedule counts every one
        // it did not start as missed (late beyond the backlog bound, or still waiting at the end).
        assertEquals(
                scheduled,
                completed + p.missed(),
                "completed " + completed + " + missed " + p.missed() + " = rate x time");

        long responseP99 = p.responseTimeUs().p99();
        long serviceP99 = p.serviceTimeUs().p99();
        System.out.printf(
                "overload: scheduled %d, completed %d, missed %d, p99 response %d us, p99 service %d us%n",
                scheduled, completed, p.missed(), responseP99, serviceP99);
        assertTrue(
                responseP99 > 10 * serviceP99,
                "p99 response " + responseP99 + " us vs p99 service " + serviceP99 + " us: queueing must show");
        assertTrue(p.responseTimeUs().p50() > 10 * p.serviceTimeUs().p50(), "the median queues too");
        // The backlog bound (1 s) caps how long an arrival waits to start.
        assertTrue(responseP99 < 1_000_000 + 100L * serviceP99 + 200_000, "p99 response " + responseP99);

        // samples.csv tells the same story window by window.
        Path runDir;
        try (Stream<Path> runs = Files.list(dir)) {
            runDir = runs.filter(d -> d.getFileName().toString().startsWith("run"))
                    .findFirst()
                    .orElseThrow();
        }
        List<Results.Row> all = new Results(runDir).allRows();
        assertEquals(p.missed(), all.stream().mapToLong(Results.Row::missed).sum(), "missed in samples.csv");
        assertEquals(completed, all.stream().mapToLong(Results.Row::total).sum(), "completed in samples.csv");
    }
}
