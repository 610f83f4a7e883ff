package org.ivsbench.bench.ycsbivs;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.ivsbench.bench.ExperimentSupport;
import org.ivsbench.bench.ExperimentWorkload;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.LeafView;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.config.Shrink;
import org.ivsbench.config.TransactionTypeConfig;

/**
 * ycsbivs's part of a YCSB-IVS experiment: the extend phase (100% ExtendRecord, {@code extend/count} operations)
 * and the run phase ({@code run/weights} over ReadRecord, ExtendRecord, UpdateRecord, {@code run/count} measured
 * operations), both on the config's table; the baselines load that table with other recordcount and fieldlength.
 * The config's {@code <transactiontypes>} and {@code <works>} play no part.
 */
public record YcsbIvsExperiment(
        long extendCount,
        String extendDistribution,
        RateSpec extendRate,
        long runCount,
        String runDistribution,
        RateSpec runRate,
        Map<String, Double> runWeights,
        YcsbIvsParameters parameters)
        implements ExperimentWorkload {

    /** The transaction types of every experiment phase, in the order of the phases' weights. */
    public static final List<String> TYPES = List.of("ReadRecord", "ExtendRecord", "UpdateRecord");

    /**
     * The run types epochs.csv reports apart: the mixed READ/UPDATE runs plot each type on its own (the paper's
     * Figs 6, 7, 11, 12, 16).
     */
    public static final List<TypeColumns> RUN_TYPE_COLUMNS = List.of(
            new TypeColumns("read", "ReadRecord"),
            new TypeColumns("update", "UpdateRecord"),
            new TypeColumns("extend", "ExtendRecord"));

    static final Set<String> LEAVES = Set.of(
            "extend/count",
            "extend/distribution",
            "extend/rate",
            "run/count",
            "run/distribution",
            "run/rate",
            "run/weights");

    static final ExperimentSupport SUPPORT = new ExperimentSupport() {
        @Override
        public Set<String> leaves() {
            return LEAVES;
        }

        /** --shrink: the extend phase's and the run phase's operation counts. */
        @Override
        public Map<String, Long> shrinkCaps() {
            return Map.of("extend/count", Shrink.COUNT, "run/count", Shrink.COUNT);
        }

        @Override
        public ExperimentWorkload parse(LeafView section, BenchmarkConfig config) throws ConfigException {
            return YcsbIvsExperiment.parse(section, YcsbIvsParameters.from(config));
        }
    };

    public YcsbIvsExperiment {
        runWeights = Collections.unmodifiableMap(new LinkedHashMap<>(runWeights));
    }

    static YcsbIvsExperiment parse(LeafView section, YcsbIvsParameters parameters) throws ConfigException {
        long extendCount = section.requiredLong("extend/count", 1, Long.MAX_VALUE, "the experiment needs it");
        String extendDist = distribution(section, "extend/distribution", "zipfian");
        RateSpec extendRate = rate(section, "extend/rate");
        long runCount = section.requiredLong("run/count", 1, Long.MAX_VALUE, "the experiment needs it");
        String runDist = distribution(section, "run/distribution", "uniform");
        RateSpec runRate = rate(section, "run/rate");
        Map<String, Double> weights = weights(section, section.string("run/weights", "ReadRecord:100"));
        return new YcsbIvsExperiment(
                extendCount, extendDist, extendRate, runCount, runDist, runRate, weights, parameters);
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("extendCount", extendCount);
        m.put("extendDistribution", extendDistribution);
        m.put("extendRate", rateText(extendRate));
        m.put("runCount", runCount);
        m.put("runDistribution", runDistribution);
        m.put("runRate", rateText(runRate));
        m.put("runWeights", runWeights);
        return m;
    }

    @Override
    public List<TypeColumns> runTypeColumns() {
        return RUN_TYPE_COLUMNS;
    }

    @Override
    public String dataTable() {
        return parameters.table();
    }

    @Override
    public BenchmarkConfig extendPhase(BenchmarkConfig base, long seed) {
        PhaseConfig phase = PhaseConfig.builder(0)
                .name("extend")
                .count(extendCount)
                .rate(extendRate)
                .weights(List.of(0.0, 100.0, 0.0))
                .activeTerminals(base.terminals())
                .parameters(Map.of("distribution", extendDistribution))
                .build();
        return phaseConfig(base, phase, seed);
    }

    @Override
    public BenchmarkConfig runPhase(BenchmarkConfig base, long warmupSeconds, long seed) {
        List<Double> w =
                TYPES.stream().map(t -> runWeights.getOrDefault(t, 0.0)).toList();
        PhaseConfig phase = PhaseConfig.builder(0)
                .name("run")
                .count(runCount)
                .warmupSeconds(warmupSeconds)
                .rate(runRate)
                .weights(w)
                .activeTerminals(base.terminals())
                .parameters(Map.of("distribution", runDistribution))
                .build();
        return phaseConfig(base, phase, seed);
    }

    @Override
    public long fieldCapAt() {
        // An extend of extendfieldlength bytes is skipped once it would pass maxfieldlength.
        return Math.max(1, parameters.maxFieldLength() - parameters.extendFieldLength() + 1);
    }

    /**
     * {@code extend/count} extends per epoch, each appending {@code extendfieldlength} bytes to one field (to
     * every field with {@code writeallfields}); with a variable {@code extendlengthdistribution} its mean length
     * (estimated from a fixed stream, so the same in every run): the expected volume, not a replay of the draws.
     */
    @Override
    public OptionalLong extendedBytes(int epochs) {
        int valuesPerExtend = parameters.writeAllFields() ? parameters.fieldCount() : 1;
        return OptionalLong.of(extendedBytes(
                epochs, extendCount, valuesPerExtend, parameters.extendLengths().mean()));
    }

    /** {@code epochs} x {@code extendsPerEpoch} extends of {@code valuesPerExtend} values, each grown by {@code bytes}. */
    static long extendedBytes(long epochs, long extendsPerEpoch, int valuesPerExtend, double bytes) {
        // Exact for whole byte counts: doubles hold integers exactly up to 2^53 (about 9 PB).
        return Math.round((double) epochs * extendsPerEpoch * valuesPerExtend * bytes);
    }

    @Override
    public boolean runWrites() {
        return runWeights.entrySet().stream().anyMatch(e -> !e.getKey().equals("ReadRecord") && e.getValue() > 0);
    }

    @Override
    public BaselineData averageBaseline(BenchmarkConfig runConfig, long records, double averageValueBytes) {
        long length = Math.round(averageValueBytes);
        // Every value of the average size: the point of this baseline, whatever the primary's length shape.
        BenchmarkConfig config = derived(runConfig, records, length);
        Map<String, String> p = new HashMap<>(config.parameters());
        p.remove("fieldlengthdistribution");
        return new BaselineData(config.withParameters(p), records, parameters.fieldCount(), length);
    }

    @Override
    public BaselineData spreadBaseline(BenchmarkConfig runConfig, long records, long totalBytes) {
        // Records as initially loaded (same length shape), as many as hold the primary's volume; with a length
        // distribution the record size is its expected size.
        long spread = spreadRecords(totalBytes, parameters.initialRecordBytes(), records);
        return new BaselineData(
                derived(runConfig, spread, parameters.fieldLength()),
                spread,
                parameters.fieldCount(),
                Math.round(parameters.fieldLengths().mean()));
    }

    /** spread-baseline's record count: the primary's data volume in records of the initial size. */
    static long spreadRecords(long totalBytes, long initialRecordBytes, long fallback) {
        if (initialRecordBytes <= 0) {
            return Math.max(1, fallback);
        }
        return Math.max(1, Math.round((double) totalBytes / initialRecordBytes));
    }

    /** The config every experiment phase runs with: the experiment's transaction types and the given phase. */
    private static BenchmarkConfig phaseConfig(BenchmarkConfig base, PhaseConfig phase, long seed) {
        List<TransactionTypeConfig> types =
                TYPES.stream().map(t -> new TransactionTypeConfig(t, 0, 0)).toList();
        return base.toBuilder()
                .randomSeed(seed)
                .transactionTypes(types)
                .phases(List.of(phase))
                .build();
    }

    /** The run config with recordcount and fieldlength replaced (a baseline's own data set). */
    private static BenchmarkConfig derived(BenchmarkConfig runConfig, long records, long fieldLength) {
        Map<String, String> p = new HashMap<>(runConfig.parameters());
        p.put("recordcount", Long.toString(records));
        p.put("fieldlength", Long.toString(fieldLength));
        return runConfig.withParameters(p);
    }

    static String rateText(RateSpec r) {
        return r.isOpen() ? Double.toString(r.opsPerSecond()) : "unlimited";
    }

    /** The expression, validated, as written (lower case): the phase parameter re-parses it. */
    private static String distribution(LeafView s, String leaf, String dflt) throws ConfigException {
        String text = s.string(leaf, dflt);
        YcsbIvsParameters.keyDistribution(s.childPath(leaf), text);
        return text.toLowerCase(Locale.ROOT);
    }

    private static RateSpec rate(LeafView s, String leaf) throws ConfigException {
        String text = s.leaf(leaf);
        if (text == null || text.equalsIgnoreCase("unlimited")) {
            return RateSpec.unlimited();
        }
        try {
            double v = Double.parseDouble(text);
            if (!(v > 0) || Double.isInfinite(v)) {
                throw new NumberFormatException();
            }
            return RateSpec.open(v);
        } catch (NumberFormatException e) {
            throw s.error(leaf, "'" + text + "' must be a positive number of ops/s or unlimited");
        }
    }

    private static Map<String, Double> weights(LeafView s, String text) throws ConfigException {
        String path = s.childPath("run/weights");
        Map<String, Double> w = new LinkedHashMap<>();
        double total = 0;
        for (String part : text.split(",")) {
            String[] kv = part.trim().split(":");
            String type = kv[0].trim();
            if (kv.length != 2 || !TYPES.contains(type)) {
                throw new ConfigException(
                        path,
                        "'" + text + "' must list Type:percent pairs of " + String.join(", ", TYPES)
                                + " (e.g. ReadRecord:50,UpdateRecord:50)");
            }
            double v;
            try {
                v = Double.parseDouble(kv[1].trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(path, "'" + text + "': '" + kv[1].trim() + "' is not a number");
            }
            if (v < 0 || w.containsKey(type)) {
                throw new ConfigException(path, "'" + text + "': negative or repeated weight for " + type);
            }
            w.put(type, v);
            total += v;
        }
        if (Math.abs(total - 100) > 1e-6) {
            throw new ConfigException(path, "'" + text + "' must add up to 100 (it adds up to " + total + ")");
        }
        return w;
    }
}
