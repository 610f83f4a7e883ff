package org.ivsbench.mode;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.ivsbench.config.Shard;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The options each mode refuses: the error line, and which one wins when several are given. */
class ExecutionModeTest {
    private static RunOptions options(boolean resume, boolean benchbaseOutputs, Path jh, Path trace, String shard) {
        return new RunOptions(
                "ycsbivs",
                Path.of("c.xml"),
                false,
                false,
                false,
                true,
                resume,
                false,
                Path.of("results"),
                1,
                null,
                jh,
                benchbaseOutputs,
                false,
                trace,
                shard,
                300,
                null,
                null,
                15,
                List.of());
    }

    private static String error(ExecutionMode mode, RunOptions o, int trials) {
        Shard shard = o.shard() == null ? Shard.WHOLE : Shard.parse(o.shard());
        return assertThrows(UsageException.class, () -> mode.check(o, shard, trials))
                .getMessage();
    }

    @Test
    void thePhasesModeTakesEveryOptionButResume() {
        RunOptions all = options(false, true, Path.of("h.json"), Path.of("t.gz"), "1/2");
        assertDoesNotThrow(() -> ExecutionMode.PHASES.check(all, Shard.parse("1/2"), 1));
        for (RunOption o : RunOption.values()) {
            assertEquals(o != RunOption.RESUME, ExecutionMode.PHASES.accepts(o), o.optionName());
        }
        assertEquals(
                "--resume: continues an interrupted <experiment>; this config runs <works> phases (run it again"
                        + " instead)",
                error(ExecutionMode.PHASES, options(true, true, Path.of("h.json"), Path.of("t.gz"), "1/2"), 1));
    }

    @Test
    void anExperimentRefusesTheRunFilesAndTheTraceButResumes() {
        assertEquals(
                "--benchbase-outputs: not supported with an <experiment>: use epochs.csv and each phase's"
                        + " summary.json",
                error(ExecutionMode.EXPERIMENT, options(true, true, Path.of("h.json"), Path.of("t.gz"), null), 1));
        assertEquals(
                "-jh: not supported with an <experiment>: use epochs.csv and each phase's summary.json",
                error(ExecutionMode.EXPERIMENT, options(false, false, Path.of("h.json"), Path.of("t.gz"), null), 1));
        assertEquals(
                "--trace: not supported with an <experiment> (trace a run of <works> phases)",
                error(ExecutionMode.EXPERIMENT, options(false, false, null, Path.of("t.gz"), null), 1));
        assertEquals(
                "--shard 1/2: not supported with an <experiment> (shard a run of <works> phases)",
                error(ExecutionMode.EXPERIMENT, options(false, true, null, Path.of("t.gz"), "1/2"), 1));
        assertDoesNotThrow(
                () -> ExecutionMode.EXPERIMENT.check(options(true, false, null, null, null), Shard.WHOLE, 1));
    }

    @Test
    void trialsRefuseResumeLastAndNameTheirCount() {
        assertEquals(
                "--resume: not supported with experiment/trials 3 (resume one trial's folder with a config without"
                        + " <trials>)",
                error(ExecutionMode.TRIALS, options(true, false, null, null, null), 3));
        assertEquals(
                "--trace: not supported with an <experiment> (trace a run of <works> phases)",
                error(ExecutionMode.TRIALS, options(true, false, null, Path.of("t.gz"), null), 3));
    }

    @Test
    void aSweepRefusesResumeFirst() {
        assertEquals(
                "--resume: not supported with a <sweep>: use sweep.csv and each point's summary.json",
                error(ExecutionMode.SWEEP, options(true, true, Path.of("h.json"), Path.of("t.gz"), null), 1));
        assertEquals(
                "--benchbase-outputs: not supported with a <sweep>: use sweep.csv and each point's summary.json",
                error(ExecutionMode.SWEEP, options(false, true, Path.of("h.json"), null, null), 1));
        assertEquals(
                "--trace: not supported with a <sweep> (trace a run of <works> phases)",
                error(ExecutionMode.SWEEP, options(false, false, null, Path.of("t.gz"), null), 1));
        assertEquals(
                "--shard 0/3: not supported with a <sweep> (shard a run of <works> phases)",
                error(ExecutionMode.SWEEP, options(true, false, null, null, "0/3"), 1));
    }

    @Test
    void everyModeOfTheMainCommandServesMetricsAndTheSubcommandsRefuseThem() {
        for (ExecutionMode mode :
                List.of(ExecutionMode.PHASES, ExecutionMode.EXPERIMENT, ExecutionMode.TRIALS, ExecutionMode.SWEEP)) {
            assertTrue(mode.accepts(RunOption.METRICS_LISTEN), mode.name());
        }
        RunOptions listen = new RunOptions(
                "ycsbivs",
                Path.of("c.xml"),
                false,
                false,
                false,
                true,
                false,
                false,
                Path.of("results"),
                1,
                null,
                null,
                false,
                false,
                null,
                null,
                300,
                null,
                "127.0.0.1:9464",
                15,
                List.of());
        assertDoesNotThrow(() -> ExecutionMode.SWEEP.check(listen, Shard.WHOLE, 1));
        assertEquals("--metrics-listen: not an option of tenants", error(ExecutionMode.TENANTS, listen, 1));
        assertEquals("--metrics-listen: not an option of replay", error(ExecutionMode.REPLAY, listen, 1));
    }

    @Test
    void theSubcommandModesAreNotChosenByAConfig() {
        assertFalse(ExecutionMode.TENANTS.accepts(RunOption.TRACE));
        assertTrue(ExecutionMode.REPLAY.accepts(RunOption.TRACE));
        assertThrows(IllegalStateException.class, () -> ExecutionMode.TENANTS.execute(null));
    }
}
