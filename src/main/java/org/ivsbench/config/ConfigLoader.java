package org.ivsbench.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Loads a BenchBase-style XML config into a validated, immutable {@link BenchmarkConfig}. The loader checks
 * everything that does not depend on the benchmark's semantics; benchmark parameters are passed through as
 * strings for the module to validate, and the experiment section is flattened for the experiment runner.
 * Element reference: config/README.md.
 */
public final class ConfigLoader {
    static final String ROOT = "parameters";

    private static final List<String> RUN_ELEMENTS = List.of(
            "terminals",
            "loaderThreads",
            "randomSeed",
            "batchsize",
            "scalefactor",
            "transactiontypes",
            "works",
            "monitor",
            "metrics",
            "experiment",
            "sweep");

    private ConfigLoader() {}

    /**
     * Loads with password environment variables taken from the process environment. {@code targetCheck}
     * validates the target section against the database kinds (TargetKinds::resolve).
     */
    public static BenchmarkConfig load(
            Path xmlFile,
            String benchmarkName,
            List<String> supportedTransactionTypes,
            Set<String> benchmarkParameterNames,
            Set<String> phaseParameterNames,
            TargetCheck targetCheck)
            throws ConfigException {
        return load(
                xmlFile,
                benchmarkName,
                supportedTransactionTypes,
                benchmarkParameterNames,
                phaseParameterNames,
                targetCheck,
                System::getenv);
    }

    /**
     * As {@link #load(Path, String, List, Set, Set, TargetCheck)}, with {@code environment} resolving
     * {@code passwordEnv} (tests pass a map's {@code get}; it returns null for an unset variable).
     */
    public static BenchmarkConfig load(
            Path xmlFile,
            String benchmarkName,
            List<String> supportedTransactionTypes,
            Set<String> benchmarkParameterNames,
            Set<String> phaseParameterNames,
            TargetCheck targetCheck,
            Function<String, String> environment)
            throws ConfigException {
        XmlNode rootNode = SafeXml.read(xmlFile);
        if (!ROOT.equals(rootNode.name())) {
            throw new ConfigException(
                    SafeXml.label(xmlFile),
                    "root element is <" + rootNode.name() + ">; an ivsbench config starts with <" + ROOT + ">");
        }
        Element root = new Element(rootNode, "");
        root.requireSection(knownTopLevel(benchmarkParameterNames));

        Path source = xmlFile.toAbsolutePath().normalize();
        Path configDir = source.getParent();
        TargetConfig target = TargetSection.parse(root, configDir, environment, targetCheck);

        int terminals = root.intAtLeast("terminals", 1, 1);
        int loaderThreads = root.intAtLeast("loaderThreads", defaultLoaderThreads(), 1);
        // A run is always seeded: without randomSeed it is 0, so two runs of one config make the same operations.
        long randomSeed = root.longValue("randomSeed", 0);
        int batchSize = root.intAtLeast("batchsize", 128, 1);
        double scaleFactor = scaleFactor(root);

        // An experiment builds its own phases and transaction types: <works> and <transactiontypes> may be left out.
        boolean experimentPresent = root.single("experiment") != null;
        List<TransactionTypeConfig> types =
                TransactionTypesSection.parse(root, benchmarkName, supportedTransactionTypes, experimentPresent);
        List<PhaseConfig> phases = WorksSection.parse(root, terminals, types, phaseParameterNames, experimentPresent);
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String name : benchmarkParameterNames) {
            Element group = root.single(name);
            if (group != null && group.hasChildren()) {
                // A benchmark's element may group leaves (e.g. <keys><length>): "name/child", as in a phase.
                flatten(group, name, parameters);
                continue;
            }
            String value = root.leaf(name);
            if (value != null) {
                parameters.put(name, value);
            }
        }
        MonitorConfig monitor = MonitorSection.parse(root, configDir);
        String metricsListen = MetricsSection.parse(root);
        Map<String, String> experiment = ExperimentSection.parse(root);
        SweepConfig sweep = SweepSection.parse(root, phases, experimentPresent);
        return BenchmarkConfig.builder(target)
                .source(source)
                .terminals(terminals)
                .loaderThreads(loaderThreads)
                .randomSeed(randomSeed)
                .batchSize(batchSize)
                .scaleFactor(scaleFactor)
                .transactionTypes(types)
                .phases(phases)
                .parameters(parameters)
                .monitor(monitor)
                .experiment(experiment)
                .sweep(sweep)
                .metricsListen(metricsListen)
                .build();
    }

    /**
     * The leaves under {@code group} as "prefix/child" (deeper groups as "prefix/child/grandchild"). A group that
     * repeats among its siblings gets its 1-based index, "sections/section[2]/name"; a repeated leaf is an error.
     */
    private static void flatten(Element group, String prefix, Map<String, String> parameters) throws ConfigException {
        group.requireContainer();
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (Element child : group.children()) {
            seen.merge(child.name(), 1, Integer::sum);
        }
        Map<String, Integer> index = new LinkedHashMap<>();
        for (Element child : group.children()) {
            String name = prefix + "/" + child.name();
            if (child.hasChildren()) {
                int i = index.merge(child.name(), 1, Integer::sum);
                flatten(child, seen.get(child.name()) > 1 ? name + "[" + i + "]" : name, parameters);
                continue;
            }
            if (parameters.put(name, child.text()) != null) {
                throw new ConfigException(child.path(), "given more than once; give it once");
            }
        }
    }

    /** Generic elements first, then the benchmark's own, so "known: ..." in errors reads in a useful order. */
    private static List<String> knownTopLevel(Set<String> benchmarkParameterNames) {
        List<String> known = new ArrayList<>(TargetSection.ELEMENTS);
        known.addAll(RUN_ELEMENTS);
        for (String name : new TreeSet<>(benchmarkParameterNames)) {
            if (known.contains(name)) {
                throw new IllegalArgumentException("benchmark parameter '" + name + "' clashes with a generic element");
            }
            known.add(name);
        }
        return known;
    }

    /** Loading is mostly waiting on the database; more than four threads rarely helps and crowds small servers. */
    private static int defaultLoaderThreads() {
        return Math.min(4, Runtime.getRuntime().availableProcessors());
    }

    private static double scaleFactor(Element root) throws ConfigException {
        double value = root.decimal("scalefactor", 1);
        if (value <= 0) {
            throw root.error("scalefactor", "'" + root.leaf("scalefactor") + "' must be positive");
        }
        return value;
    }
}
