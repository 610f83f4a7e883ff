package org.ivsbench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.NamingRegistry;
import org.ivsbench.bench.SessionTerminal;
import org.ivsbench.bench.Terminal;
import org.ivsbench.bench.kv.KvModule;
import org.ivsbench.bench.rogue.RogueBenchmark;
import org.ivsbench.db.ReconnectingSession;
import org.ivsbench.run.MeasuredRun;
import org.ivsbench.run.RunFolder;
import org.ivsbench.run.RunLifecycle;
import org.ivsbench.run.Stopping;
import org.ivsbench.stats.EnvironmentWriter;
import org.ivsbench.stats.ResultsDirectory;
import org.ivsbench.stats.RunInfo;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which package may use which, checked on the compiled main classes (tests are free to reach across). The
 * point of each rule is in its {@code because}.
 */
class LayeringTest {
    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.ivsbench");
    }

    private static void check(ArchRule rule) {
        rule.check(main);
    }

    /** The binding packages: each {@code org.ivsbench.db.X} that holds main classes. */
    private static Set<String> bindings() {
        Set<String> found = new TreeSet<>();
        for (JavaClass c : main) {
            String p = c.getPackageName();
            if (p.startsWith("org.ivsbench.db.")) {
                found.add("org.ivsbench.db."
                        + p.substring("org.ivsbench.db.".length()).split("\\.")[0]);
            }
        }
        return found;
    }

    @Test
    void bindingsAreReachedOnlyThroughTheirKinds() {
        Set<String> bindings = bindings();
        assertTrue(
                bindings.containsAll(
                        Set.of("org.ivsbench.db.jdbc", "org.ivsbench.db.mongo", "org.ivsbench.db.cassandra")),
                "the bindings are found: " + bindings);
        String[] all = bindings.stream().map(b -> b + "..").toArray(String[]::new);
        check(noClasses()
                .that()
                .resideOutsideOfPackages(all)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(all)
                .because("a database binding is registered through ServiceLoader and used through the interfaces"
                        + " of org.ivsbench.db; nothing may name one"));
        for (String binding : bindings) {
            String[] others = bindings.stream()
                    .filter(b -> !b.equals(binding))
                    .map(b -> b + "..")
                    .toArray(String[]::new);
            check(noClasses()
                    .that()
                    .resideInAPackage(binding + "..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(others)
                    .because("bindings are independent of each other"));
        }
    }

    @Test
    void theDatabaseLayerKnowsNoBenchmarkAndNoRun() {
        check(noClasses()
                .that()
                .resideInAPackage("org.ivsbench.db..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.ivsbench.bench..",
                        "org.ivsbench.engine..",
                        "org.ivsbench.run..",
                        "org.ivsbench.experiment..",
                        "org.ivsbench.stats..",
                        "org.ivsbench.monitor..",
                        "org.ivsbench.trace..",
                        "org.ivsbench.merge..",
                        "org.ivsbench.benchbase..",
                        "org.ivsbench.cli..")
                .because("a binding stores records; what is measured and how is decided above it"));
    }

    @Test
    void theEngineDrivesTerminalsNotDatabases() {
        check(noClasses()
                .that()
                .resideInAPackage("org.ivsbench.engine..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.ivsbench.db..")
                .because("the engine schedules terminals and counts outcomes (org.ivsbench.op); benchmarks talk"
                        + " to the database"));
    }

    @Test
    void configAndOpAreLeaves() {
        check(noClasses()
                .that()
                .resideInAPackage("org.ivsbench.config..")
                .should()
                .dependOnClassesThat(
                        resideInAPackage("org.ivsbench..").and(not(resideInAPackage("org.ivsbench.config.."))))
                .because("config is plain data read from XML; checks that need the database kinds are passed"
                        + " in (TargetCheck)"));
        check(noClasses()
                .that()
                .resideInAPackage("org.ivsbench.op..")
                .should()
                .dependOnClassesThat(resideInAPackage("org.ivsbench..").and(not(resideInAPackage("org.ivsbench.op.."))))
                .because("outcomes are shared by bindings, engine and statistics"));
    }

    @Test
    void theMonitorSeesDatabasesOnlyThroughCapabilities() {
        check(noClasses()
                .that()
                .resideInAPackage("org.ivsbench.monitor..")
                .should()
                .dependOnClassesThat(
                        resideInAPackage("org.ivsbench.db..").and(not(resideInAPackage("org.ivsbench.db"))))
                .because("the monitor reads counters and server facts through org.ivsbench.db's capability"
                        + " interfaces, whichever binding provides them"));
        check(noClasses()
                .that()
                .resideInAPackage("org.ivsbench.monitor..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.ivsbench.bench..",
                        "org.ivsbench.engine..",
                        "org.ivsbench.experiment..",
                        "org.ivsbench.cli..")
                .because("the monitor samples a host and a database, whoever runs it"));
    }

    @Test
    void benchmarksDoNotRunThemselves() {
        check(noClasses()
                .that()
                .resideInAPackage("org.ivsbench.bench..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.ivsbench.engine..",
                        "org.ivsbench.experiment..",
                        "org.ivsbench.cli..",
                        "org.ivsbench.monitor..")
                .because("a benchmark module describes terminals and data; the engine and the CLI run it"));
    }

    @Test
    void benchmarksAreReachedThroughTheRegistry() {
        check(noClasses()
                .that(not(resideInAnyPackage("org.ivsbench.bench.ycsbivs..", "org.ivsbench.bench")))
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.ivsbench.bench.ycsbivs..")
                .because("benchmarks are found by name in BenchmarkRegistry, and the experiment reaches ycsbivs's"
                        + " phases and parameters only through the ExperimentSupport capability it offers"));
        check(noClasses()
                .that(not(resideInAnyPackage("org.ivsbench.bench.ycsb..", "org.ivsbench.bench")))
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.ivsbench.bench.ycsb..")
                .because("benchmarks are found by name in BenchmarkRegistry; BenchBase's YCSB and ycsbivs share"
                        + " transaction type names but no code"));
    }

    @Test
    void benchBaseFilesAreAnOptionOfTheCommandLine() {
        check(noClasses()
                .that()
                .resideInAPackage("org.ivsbench.benchbase..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.ivsbench.cli..",
                        "org.ivsbench.experiment..",
                        "org.ivsbench.run..",
                        "org.ivsbench.engine..",
                        "org.ivsbench.monitor..",
                        "org.ivsbench.merge..",
                        "org.ivsbench.trace..")
                .because("BenchBase's result files are written from a finished run's own files (and the raw CSV"
                        + " by a module decorator), not by the run"));
        check(noClasses()
                .that(not(resideInAnyPackage("org.ivsbench.benchbase..", "org.ivsbench.cli..", "org.ivsbench.mode..")))
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.ivsbench.benchbase..")
                .because("--benchbase-outputs and --benchbase-raw are options of the command line (and of its phases"
                        + " mode), not steps of a run or an experiment"));
    }

    @Test
    void theMetricsEndpointIsAnOptionOfTheCommandLine() {
        check(noClasses()
                .that()
                .resideOutsideOfPackages("org.ivsbench.metrics..", "org.ivsbench.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.ivsbench.metrics..")
                .because("--metrics-listen is started by the command line; the modes and runs report to it through"
                        + " run.LiveMetrics and stats.OperationListener"));
        check(noClasses()
                .that()
                .resideInAPackage("org.ivsbench.metrics..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.ivsbench.engine..",
                        "org.ivsbench.bench..",
                        "org.ivsbench.db..",
                        "org.ivsbench.mode..",
                        "org.ivsbench.experiment..",
                        "org.ivsbench.cli..")
                .because("the endpoint exposes what the statistics record; it drives nothing"));
        check(noClasses()
                .that()
                .resideOutsideOfPackage("org.ivsbench.metrics..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.prometheus..")
                .because("the Prometheus client is the endpoint's own"));
    }

    @Test
    void theMergeReadsFilesOnly() {
        check(noClasses()
                .that()
                .resideInAPackage("org.ivsbench.merge..")
                .should()
                .dependOnClassesThat(
                        resideInAPackage("org.ivsbench..").and(not(resideInAPackage("org.ivsbench.merge.."))))
                .because("merging shards' results folders works on the files as docs/results-format.md defines"
                        + " them, wherever the shards ran; it needs no database, engine or config"));
        check(noClasses()
                .that(not(resideInAnyPackage("org.ivsbench.merge..", "org.ivsbench.cli..", "org.ivsbench.mode..")))
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.ivsbench.merge..")
                .because("the merge is a subcommand of its own, not a step of a run (a shard of the phases mode"
                        + " words its start barrier as the merge reports it)"));
    }

    @Test
    void arrowsPointOneWay() {
        check(noClasses()
                .that()
                .resideInAnyPackage(
                        "org.ivsbench.engine..",
                        "org.ivsbench.bench..",
                        "org.ivsbench.stats..",
                        "org.ivsbench.monitor..",
                        "org.ivsbench.random..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.ivsbench.cli..", "org.ivsbench.experiment..", "org.ivsbench.run..")
                .because("cli -> experiment -> run -> engine -> bench -> db: nothing below calls back up"));
        check(noClasses()
                .that()
                .resideInAnyPackage("org.ivsbench.experiment..", "org.ivsbench.run..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.ivsbench.cli..")
                .because("the command line is the top: experiments and runs are used by it, not the reverse"));
        check(noClasses()
                .that()
                .resideInAPackage("org.ivsbench.run..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.ivsbench.experiment..")
                .because("a measured run is the building block of an experiment, not the reverse"));
    }

    /** The benchmark packages: {@code org.ivsbench.bench.<name>} and below, not the SPI package itself. */
    static final String BENCHMARKS = "org.ivsbench.bench.*..";

    /** A rule must fail on the deliberately violating classes, naming {@code violator}. */
    private static void assertViolatedBy(ArchRule rule, Class<?> violator, Class<?>... alsoImported) {
        List<Class<?>> classes = new ArrayList<>(List.of(alsoImported));
        classes.add(violator);
        JavaClasses imported = new ClassFileImporter().importClasses(classes);
        AssertionError failure = assertThrows(AssertionError.class, () -> rule.check(imported));
        assertTrue(failure.getMessage().contains(violator.getName()), failure.getMessage());
    }

    static ArchRule terminalsExtendTheSkeleton() {
        return classes()
                .that()
                .resideInAPackage(BENCHMARKS)
                .and()
                .areAssignableTo(Terminal.class)
                .should()
                .beAssignableTo(SessionTerminal.class)
                .because("a benchmark writes its operations; the session, failures and the one reconnect behaviour"
                        + " are SessionTerminal's");
    }

    static ArchRule loadersUseTheSkeletonsThreads() {
        return noClasses()
                .that()
                .resideInAPackage(BENCHMARKS)
                .should()
                .dependOnClassesThat()
                .haveNameMatching("java\\.util\\.concurrent\\.(Executor.*|ForkJoin.*|.*ThreadPool.*)")
                .because("a benchmark writes its record shape; loader threads, chunks and batches are"
                        + " ChunkedLoader's");
    }

    static ArchRule reconnectingIsTheSkeletons() {
        return noClasses()
                .that()
                .resideInAPackage(BENCHMARKS)
                .should()
                .dependOnClassesThat()
                .belongToAnyOf(ReconnectingSession.class)
                .because("there is one behaviour after a lost connection, SessionTerminal's, for every benchmark");
    }

    static ArchRule benchmarksAreReachedOnlyThroughTheSpi() {
        return noClasses()
                .that()
                .resideOutsideOfPackage(BENCHMARKS)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(BENCHMARKS)
                .because("benchmarks register through ServiceLoader (BenchmarkRegistry) and are used through"
                        + " org.ivsbench.bench's interfaces; nothing names one");
    }

    static ArchRule benchmarksAreIndependent() {
        return slices().matching("org.ivsbench.bench.(*)..")
                .should()
                .notDependOnEachOther()
                .because("a benchmark is one package: what two benchmarks share belongs in the skeleton");
    }

    @Test
    void benchmarkTerminalsExtendTheSkeleton() {
        check(terminalsExtendTheSkeleton());
        assertViolatedBy(terminalsExtendTheSkeleton(), RogueBenchmark.DirectTerminal.class);
    }

    @Test
    void benchmarkLoadersUseTheSkeletonsThreads() {
        check(loadersUseTheSkeletonsThreads());
        assertViolatedBy(loadersUseTheSkeletonsThreads(), RogueBenchmark.OwnThreadsLoader.class);
    }

    @Test
    void benchmarksLeaveReconnectingToTheSkeleton() {
        check(reconnectingIsTheSkeletons());
        assertViolatedBy(reconnectingIsTheSkeletons(), RogueBenchmark.OwnReconnect.class);
    }

    @Test
    void theRunReachesBenchmarksOnlyThroughTheSpi() {
        check(benchmarksAreReachedOnlyThroughTheSpi());
        assertViolatedBy(benchmarksAreReachedOnlyThroughTheSpi(), NamingRegistry.class, KvModule.class);
        check(benchmarksAreIndependent());
        assertViolatedBy(benchmarksAreIndependent(), RogueBenchmark.Borrower.class, KvModule.class);
    }

    @Test
    void everyBenchmarkIsRegistered() throws Exception {
        Set<String> modules = new TreeSet<>();
        for (JavaClass c : main) {
            if (c.getPackageName().startsWith("org.ivsbench.bench.")
                    && c.isAssignableTo(BenchmarkModule.class)
                    && !c.getModifiers().contains(JavaModifier.ABSTRACT)) {
                modules.add(c.getName());
            }
        }
        Set<String> registered = new TreeSet<>(
                Files.readAllLines(Path.of("src/main/resources/META-INF/services/org.ivsbench.bench.BenchmarkModule")));
        registered.removeIf(String::isBlank);
        assertEquals(modules, registered, "a benchmark module without its services line cannot be named by -b");
        assertTrue(modules.size() >= 2, "the benchmarks are found: " + modules);
    }

    // The run modes (issue 22): cli -> mode -> experiment -> run. Each rule is shown to fail on a violating class.

    static final ArchRule MODES_TAKE_NO_COMMAND_LINE = noClasses()
            .that()
            .resideInAnyPackage("org.ivsbench.mode..", "org.ivsbench.experiment..", "org.ivsbench.run..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.ivsbench.cli..", "picocli..")
            .because("the run modes live outside cli/ and read a plain RunOptions record, not the parser's"
                    + " command; the command line stays the top");

    static final ArchRule NOTHING_BELOW_KNOWS_THE_MODES = noClasses()
            .that()
            .resideOutsideOfPackages("org.ivsbench.mode..", "org.ivsbench.cli..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("org.ivsbench.mode..")
            .because("a mode is chosen once by the command line; experiments, runs and what is below them know"
                    + " none");

    static final ArchRule THE_COMMAND_LINE_RUNS_NO_MODE = noClasses()
            .that()
            .resideInAPackage("org.ivsbench.cli..")
            .should()
            .dependOnClassesThat()
            .belongToAnyOf(MeasuredRun.class, RunFolder.class, Stopping.class, RunLifecycle.Work.class)
            .because("the command line parses and checks; the modes (org.ivsbench.mode) run");

    static final ArchRule ONE_FOLDER_AND_ONE_STOP = noClasses()
            .that()
            .resideOutsideOfPackage("org.ivsbench.run..")
            .should()
            .callConstructor(
                    RunInfo.class,
                    String.class,
                    String.class,
                    Map.class,
                    String.class,
                    long.class,
                    int.class,
                    int.class,
                    List.class)
            .orShould()
            .callMethod(EnvironmentWriter.class, "write", Path.class, Map.class, String.class, List.class, List.class)
            .orShould()
            .callMethod(ResultsDirectory.class, "create", Path.class, String.class)
            .orShould()
            .callMethod(MeasuredRun.class, "requestStop")
            .because("run.RunFolder makes and prepares every mode's results folder (config.xml, environment.json,"
                    + " RunInfo)"
                    + " and run.Stopping owns every mode's stop");

    @Test
    void runModesLiveOutsideTheCommandLine() {
        check(MODES_TAKE_NO_COMMAND_LINE);
        check(NOTHING_BELOW_KNOWS_THE_MODES);
        check(THE_COMMAND_LINE_RUNS_NO_MODE);
    }

    @Test
    void runOwnsTheFolderAndTheStop() {
        check(ONE_FOLDER_AND_ONE_STOP);
    }

    @Test
    void eachModeRuleFailsOnAViolatingClass() {
        assertViolated(MODES_TAKE_NO_COMMAND_LINE, "org.ivsbench.mode.LayeringViolations$ReadsPicocli", "picocli");
        assertViolated(
                MODES_TAKE_NO_COMMAND_LINE,
                "org.ivsbench.mode.LayeringViolations$CallsTheCommandLine",
                "org.ivsbench.cli.Main");
        assertViolated(
                NOTHING_BELOW_KNOWS_THE_MODES,
                "org.ivsbench.experiment.LayeringViolations$ReadsRunOptions",
                "org.ivsbench.mode.RunOptions");
        assertViolated(
                THE_COMMAND_LINE_RUNS_NO_MODE,
                "org.ivsbench.cli.LayeringViolations$RunsAModeItself",
                "org.ivsbench.run.RunLifecycle$Work");
        assertViolated(
                ONE_FOLDER_AND_ONE_STOP,
                "org.ivsbench.mode.LayeringViolations$BuildsItsOwnRunInfo",
                "org.ivsbench.stats.RunInfo.<init>");
        assertViolated(
                ONE_FOLDER_AND_ONE_STOP,
                "org.ivsbench.mode.LayeringViolations$StopsARunItself",
                "org.ivsbench.run.MeasuredRun.requestStop");
    }

    /** {@code rule} fails on the test class {@code violator} alone, for naming {@code forbidden}. */
    private static void assertViolated(ArchRule rule, String violator, String forbidden) {
        JavaClasses one;
        try {
            one = new ClassFileImporter().importClasses(Class.forName(violator));
        } catch (ClassNotFoundException e) {
            throw new AssertionError(violator, e);
        }
        EvaluationResult result = rule.evaluate(one);
        assertTrue(result.hasViolation(), rule + " passes on " + violator);
        String report = String.join("\n", result.getFailureReport().getDetails());
        assertTrue(
                report.contains(violator) && report.contains(forbidden),
                "the violation names " + violator + " and " + forbidden + ": " + report);
    }
}
