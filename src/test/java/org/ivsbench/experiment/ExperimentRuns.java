package org.ivsbench.experiment;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** For the experiment tests: a primary created and loaded, the experiment run to exit 0, the primary cleared. */
final class ExperimentRuns {
    /** The experiment's folder and what it printed. */
    record Ran(Path dir, String console) {}

    private ExperimentRuns() {}

    static Ran run(BenchmarkConfig config, ExperimentListener listener, Path parent) throws Exception {
        BenchmarkModule module = RunHarness.module();
        ExperimentSpec spec = ExperimentSpec.parse(config, RunHarness.module());
        String console;
        try (Target target = Targets.open(config.target())) {
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int code = ExperimentRun.run(
                    module,
                    config,
                    spec,
                    target,
                    parent,
                    1,
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    List.of("test"),
                    false,
                    listener);
            console = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, code, console);
            module.clear(config, target);
        }
        try (Stream<Path> s = Files.list(parent)) {
            return new Ran(s.findFirst().orElseThrow(), console);
        }
    }
}
