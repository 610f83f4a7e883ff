package org.ivsbench.bench.ycsbivs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;
import org.ivsbench.random.Seeds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every procedure on every target, bytes reported; seeded terminals repeat their operation sequence. */
class ProceduresIntegrationTest {

    static List<String> targets() {
        return Fixtures.TARGETS;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void everyProcedureRunsAndReportsBytes(String targetName) throws Exception {
        Map<String, String> p = Fixtures.params(targetName, "procs", Map.of("recordcount", "100"));
        BenchmarkConfig config =
                Fixtures.config(Fixtures.targetConfig(targetName), p, 3, 1, Fixtures.phase("uniform", 1));
        try (Target target = Targets(config)) {
            YcsbIvsModule module = new YcsbIvsModule();
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            try (Terminal t = module.newTerminal(config, target, 0)) {
                t.startPhase(config.phases().get(0), Seeds.forStream(3, "terminal", 0, 0));
                OpResult read = t.execute(Fixtures.typeIndex("ReadRecord"));
                assertOk(read);
                assertEquals(1000, read.bytesRead(), "all ten fields of 100 bytes");

                OpResult update = t.execute(Fixtures.typeIndex("UpdateRecord"));
                assertOk(update);
                assertEquals(100, update.bytesWritten());

                OpResult insert = t.execute(Fixtures.typeIndex("InsertRecord"));
                assertOk(insert);
                assertEquals(1000, insert.bytesWritten());
                assertEquals(101, target.countRecords("procs"));

                OpResult scan = t.execute(Fixtures.typeIndex("ScanRecord"));
                assertOk(scan);
                assertTrue(scan.bytesRead() % 1000 == 0, "whole records: " + scan.bytesRead());

                OpResult rmw = t.execute(Fixtures.typeIndex("ReadModifyWriteRecord"));
                assertOk(rmw);
                assertEquals(1000, rmw.bytesRead());
                assertEquals(100, rmw.bytesWritten());

                OpResult extend = t.execute(Fixtures.typeIndex("ExtendRecord"));
                assertOk(extend);
                // client (the default): reads the one field (100 bytes) and writes it back grown to 200
                assertEquals(100, extend.bytesRead());
                assertEquals(200, extend.bytesWritten());

                int deletes = 0;
                int notFound = 0;
                for (int i = 0; i < 20; i++) {
                    OpResult delete = t.execute(Fixtures.typeIndex("DeleteRecord"));
                    if (delete.outcome() == Outcome.OK) {
                        deletes++;
                    } else {
                        assertEquals(Outcome.ABORTED, delete.outcome());
                        assertEquals("not found", delete.reason());
                        notFound++;
                    }
                }
                assertEquals(101 - deletes, target.countRecords("procs"));
                assertEquals(20, deletes + notFound);
            }
            module.clear(config, target);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void sameSeedSameOperationsDifferentTerminalDifferentOperations(String targetName) throws Exception {
        Map<String, String> p = Fixtures.params(targetName, "seeded", Map.of("recordcount", "500"));
        BenchmarkConfig config =
                Fixtures.config(Fixtures.targetConfig(targetName), p, 42, 1, Fixtures.phase("zipfian", 1));
        try (Target target = Targets(config)) {
            YcsbIvsModule module = new YcsbIvsModule();
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            List<String> first = run(module, config, target, 5, 0);
            List<String> again = run(module, config, target, 5, 0);
            List<String> other = run(module, config, target, 6, 0);
            assertEquals(first, again);
            assertNotEquals(first, other);
            module.clear(config, target);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void aPhaseRepeatsItsOperationsWhateverRanInThePhaseBefore(String targetName) throws Exception {
        // The terminal takes the stream it is given at startPhase: what it drew in an earlier phase (here 0 or
        // 37 operations) does not shift the next phase's keys, fields or values.
        Map<String, String> p = Fixtures.params(targetName, "phased", Map.of("recordcount", "500"));
        BenchmarkConfig config =
                Fixtures.config(Fixtures.targetConfig(targetName), p, 42, 1, Fixtures.phase("zipfian", 1));
        try (Target target = Targets(config)) {
            YcsbIvsModule module = new YcsbIvsModule();
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            List<String> fresh = run(module, config, target, 5, 0);
            List<String> afterOthers = run(module, config, target, 5, 37);
            assertEquals(fresh, afterOthers);
            module.clear(config, target);
        }
    }

    /**
     * The calls of 50 operations of a fixed mix of types without inserts or deletes (so the table does not
     * drift between runs), in the terminal's second phase; {@code before} operations run in a first phase.
     */
    private static List<String> run(
            YcsbIvsModule module, BenchmarkConfig config, Target plain, int terminalId, int before) throws Exception {
        List<String> calls = new ArrayList<>();
        Target target = Fixtures.recording(plain, calls::add);
        String[] mix = {"ReadRecord", "ExtendRecord", "UpdateRecord", "ScanRecord", "ReadModifyWriteRecord"};
        long seed = config.randomSeed();
        try (Terminal t = new YcsbIvsModule().newTerminal(config, target, terminalId)) {
            t.startPhase(config.phases().get(0), Seeds.forStream(seed, "terminal", terminalId, 0));
            for (int i = 0; i < before; i++) {
                assertOk(t.execute(Fixtures.typeIndex(mix[i % mix.length])));
            }
            calls.clear();
            t.startPhase(config.phases().get(0), Seeds.forStream(seed, "terminal", terminalId, 1));
            for (int i = 0; i < 50; i++) {
                assertOk(t.execute(Fixtures.typeIndex(mix[i % mix.length])));
            }
        }
        assertEquals(50 + 10, calls.size(), "RMW makes two calls");
        return calls;
    }

    private static Target Targets(BenchmarkConfig config) throws Exception {
        return Targets.open(config.target());
    }

    private static void assertOk(OpResult r) {
        assertEquals(Outcome.OK, r.outcome(), String.valueOf(r.reason()));
    }
}
