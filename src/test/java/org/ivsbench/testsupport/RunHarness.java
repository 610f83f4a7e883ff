package org.ivsbench.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.BenchmarkRegistry;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigLoader;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.engine.Clock;
import org.ivsbench.engine.WorkloadManager;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.stats.StatsCollector;

/**
 * Runs configs through the real pieces (config loader, ycsbivs module, engine, statistics) in this JVM,
 * so integration tests can look at the database between steps.
 */
public final class RunHarness {
    private RunHarness() {}

    /** Loads a ycsbivs config from XML text (written to a file in {@code dir}). */
    public static BenchmarkConfig config(Path dir, String xml) throws Exception {
        Path file = Files.createTempFile(dir, "cfg", ".xml");
        Files.writeString(file, xml);
        BenchmarkModule m = module();
        BenchmarkConfig c = ConfigLoader.load(
                file,
                m.name(),
                m.supportedTransactionTypes(),
                m.parameterNames(),
                m.phaseParameterNames(),
                TargetKinds::resolve);
        m.validate(c);
        return c;
    }

    public static BenchmarkModule module() {
        return BenchmarkRegistry.create("ycsbivs").orElseThrow();
    }

    /** Executes the config's phases against the target; results go to a new folder under {@code dir}. */
    public static List<PhaseSummary> execute(BenchmarkModule module, BenchmarkConfig config, Target target, Path dir)
            throws Exception {
        Path runDir = Files.createTempDirectory(dir, "run");
        RunInfo info = new RunInfo(
                "test",
                module.name(),
                Map.of(),
                "sha256:test",
                config.randomSeed(),
                config.terminals(),
                1,
                config.phases());
        try (StatsCollector collector = new StatsCollector(runDir, info)) {
            WorkloadManager m = new WorkloadManager(
                    config.phases(),
                    config.transactionTypes(),
                    config.terminals(),
                    config.randomSeed(),
                    collector,
                    Clock.SYSTEM);
            m.run(id -> module.newTerminal(config, target, id));
            collector.finish(false);
            return collector.summaries();
        }
    }

    /** The MariaDB connection part of a config for the private test server. */
    public static String mariadbConnection() {
        return "<type>MARIADB</type><url>" + TestServers.mariadbUrl() + "</url><username>" + TestServers.mariadbUser()
                + "</username><password>" + TestServers.mariadbPassword() + "</password>";
    }

    /** The PostgreSQL connection part of a config for the private test server. */
    public static String postgresConnection() {
        return "<type>POSTGRESQL</type><url>" + TestServers.postgresUrl() + "</url><username>"
                + TestServers.postgresUser() + "</username><password>" + TestServers.postgresPassword() + "</password>";
    }
}
