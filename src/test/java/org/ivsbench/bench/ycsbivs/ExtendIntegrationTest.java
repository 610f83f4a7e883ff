package org.ivsbench.bench.ycsbivs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;
import org.ivsbench.random.Seeds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** EXTEND through Terminal.execute on every target, both methods: volume arithmetic and the cap as a real skip. */
class ExtendIntegrationTest {

    static Stream<Arguments> targetsAndMethods() {
        return Fixtures.TARGETS.stream().flatMap(t -> Stream.of(Arguments.of(t, "client"), Arguments.of(t, "server")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("targetsAndMethods")
    void volumeGrowsByExtendLengthPerSuccessfulExtend(String targetName, String method) throws Exception {
        int records = 200;
        int extends_ = 400;
        Map<String, String> p =
                Fixtures.params(targetName, "ext_volume", Map.of("recordcount", "" + records, "extendmethod", method));
        try (Target target = Fixtures.open(targetName)) {
            BenchmarkConfig config =
                    Fixtures.config(Fixtures.targetConfig(targetName), p, 7, 2, Fixtures.phase("zipfian", extends_));
            YcsbIvsModule module = new YcsbIvsModule();
            module.validate(config);
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            long initial = Fixtures.volumeAndMax(target, "ext_volume")[0];
            assertEquals(records * 10L * 100, initial);

            Map<Outcome, Integer> outcomes = runExtends(module, config, target, extends_);
            assertEquals(
                    extends_,
                    outcomes.getOrDefault(Outcome.OK, 0),
                    "no extend may be skipped below the cap: " + outcomes);
            long[] after = Fixtures.volumeAndMax(target, "ext_volume");
            assertEquals(initial + (long) extends_ * 100, after[0]);
            module.clear(config, target);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("targetsAndMethods")
    void capSkipsExactlyTheExtendsThatWouldPassIt(String targetName, String method) throws Exception {
        int extends_ = 120;
        // 3 records x 2 fields; each field may grow from 100 to 300 bytes: two extends each, the rest skipped.
        Map<String, String> p = Fixtures.params(
                targetName,
                "ext_cap",
                Map.of(
                        "recordcount",
                        "3",
                        "fieldcount",
                        "2",
                        "fieldlength",
                        "100",
                        "extendfieldlength",
                        "100",
                        "maxfieldlength",
                        "300",
                        "extendmethod",
                        method));
        try (Target plain = Fixtures.open(targetName)) {
            List<String> calls = new ArrayList<>();
            Target target = Fixtures.recording(plain, calls::add);
            BenchmarkConfig config =
                    Fixtures.config(Fixtures.targetConfig(targetName), p, 11, 1, Fixtures.phase("uniform", extends_));
            YcsbIvsModule module = new YcsbIvsModule();
            module.validate(config);
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);

            Map<Outcome, Integer> outcomes = runExtends(module, config, target, extends_);

            // Expected from the calls the terminal made: per (key, field) the first two extends succeed.
            Map<String, Integer> hits = new HashMap<>();
            for (String call : calls) {
                String[] parts = call.split(" ");
                hits.merge(parts[1] + "/" + parts[2], 1, Integer::sum);
            }
            int expectedOk =
                    hits.values().stream().mapToInt(h -> Math.min(h, 2)).sum();
            assertEquals(expectedOk, outcomes.getOrDefault(Outcome.OK, 0), outcomes.toString());
            assertEquals(extends_ - expectedOk, outcomes.getOrDefault(Outcome.SKIPPED, 0), outcomes.toString());
            long[] after = Fixtures.volumeAndMax(plain, "ext_cap");
            assertTrue(after[1] <= 300, "a field passed the cap: " + after[1]);
            assertEquals(3 * 2 * 100L + expectedOk * 100L, after[0]);
            module.clear(config, target);
        }
    }

    private static Map<Outcome, Integer> runExtends(
            YcsbIvsModule module, BenchmarkConfig config, Target target, int count) throws Exception {
        Map<Outcome, Integer> outcomes = new HashMap<>();
        int extend = Fixtures.typeIndex("ExtendRecord");
        try (Terminal terminal = module.newTerminal(config, target, 0)) {
            terminal.startPhase(config.phases().get(0), Seeds.forStream(config.randomSeed(), "terminal", 0, 0));
            for (int i = 0; i < count; i++) {
                OpResult r = terminal.execute(extend);
                if (r.outcome() == Outcome.SKIPPED) {
                    assertEquals("cap", r.reason());
                    // A client extend sends nothing when capped; a server extend sent its suffix, refused.
                    assertTrue(r.bytesWritten() == 0 || r.bytesWritten() == 100, "bytes " + r.bytesWritten());
                } else {
                    assertEquals(Outcome.OK, r.outcome(), String.valueOf(r.reason()));
                    assertTrue(r.bytesWritten() > 0);
                }
                outcomes.merge(r.outcome(), 1, Integer::sum);
            }
        }
        return outcomes;
    }
}
