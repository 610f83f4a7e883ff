package org.ivsbench.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.ivsbench.config.ArrivalKind;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.config.TransactionTypeConfig;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.random.Distributions;

/**
 * The {@code <experiment>} section of a ycsbivs config, validated. Errors name {@code experiment/<leaf>} and
 * quote the bad value. The experiment builds its own phases and transaction types (ReadRecord, ExtendRecord,
 * UpdateRecord): the config's {@code <transactiontypes>} and {@code <works>} are ignored when it is present.
 */
public record ExperimentSpec(
        int epochs,
        List<Mode> modes,
        long extendCount,
        String extendDistribution,
        RateSpec extendRate,
        long runCount,
        String runDistribution,
        RateSpec runRate,
        Map<String, Double> runWeights,
        long warmupSeconds,
        CleanMethod cleanMethod,
        FreshInstance freshInstance) {

    /** How clean-run copies the primary: through the Target (every backend) or with the server's own tools. */
    public enum CleanMethod { LOGICAL, NATIVE }

    /**
     * experiment/fresh: the fresh databases of clean-run and the baselines go to a server instance that
     * {@code command} (run with {@code sh -c}, at most {@code timeoutSeconds}) provides fresh before each of
     * those modes, reached at {@code url} with the primary's credentials and options. Null: fresh databases
     * on the primary's server.
     */
    public record FreshInstance(String command, String url, long timeoutSeconds) {
    }

    static final long DEFAULT_FRESH_TIMEOUT_SECONDS = 300;

    /** The transaction types of every experiment phase, in the order of the phases' weights. */
    public static final List<String> TYPES = List.of("ReadRecord", "ExtendRecord", "UpdateRecord");
    static final Set<String> LEAVES = Set.of("epochs", "modes", "extend/count", "extend/distribution", "extend/rate",
            "run/count", "run/distribution", "run/rate", "run/weights", "warmup", "clean/method", "fresh/command",
            "fresh/url", "fresh/timeout");

    public ExperimentSpec {
        modes = List.copyOf(modes);
        runWeights = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(runWeights));
    }

    /** Parses the config's experiment section; null when the config has none. */
    public static ExperimentSpec parse(BenchmarkConfig config) throws ConfigException {
        if (config.experiment() == null) {
            return null;
        }
        ExperimentSpec spec = parse(config.experiment());
        String type = config.target().type();
        TargetKind kind = TargetKinds.of(type);
        if (spec.cleanMethod() == CleanMethod.NATIVE && !kind.nativeSnapshot()) {
            throw new ConfigException(path("clean/method"), "'native' uses the server's own dump tools and is"
                    + " available for " + nativeKinds() + " targets, not " + type + "; use 'logical'");
        }
        for (Mode mode : spec.modes()) {
            if (mode != Mode.MAIN && !kind.freshDatabases()) {
                throw new ConfigException(path("modes"), "'" + mode.label() + "' runs on a fresh database, which"
                        + " type " + type + " cannot make; use main only");
            }
        }
        FreshInstance fresh = spec.freshInstance();
        if (fresh != null) {
            String url = fresh.url();
            if (kind.serverProcess().isEmpty()) {
                throw new ConfigException(path("fresh/url"), "a fresh server instance is for server databases; "
                        + kind.displayName() + "'s fresh databases are already new ones beside the primary");
            }
            if (!kind.accepts(url)) {
                throw new ConfigException(path("fresh/url"), "'" + url + "' is not a " + type + " url like the"
                        + " target's");
            }
            if (url.equals(config.target().url())) {
                throw new ConfigException(path("fresh/url"), "'" + url + "' is the primary's own url: the fresh"
                        + " instance must be another server");
            }
        }
        return spec;
    }

    private static String nativeKinds() {
        List<String> names = new ArrayList<>();
        for (TargetKind k : TargetKinds.all()) {
            if (k.nativeSnapshot()) {
                names.addAll(k.names());
            }
        }
        return String.join("/", names);
    }

    public static ExperimentSpec parse(Map<String, String> section) throws ConfigException {
        List<String> modeTexts = new ArrayList<>();
        for (Map.Entry<String, String> e : section.entrySet()) {
            String leaf = e.getKey();
            if (leaf.equals("modes/mode") || leaf.matches("modes/mode\\[\\d+]")) {
                modeTexts.add(e.getValue());
            } else if (!LEAVES.contains(leaf)) {
                throw new ConfigException(path(leaf), "unknown experiment element; known: "
                        + String.join(", ", LEAVES.stream().sorted().toList()));
            }
        }
        int epochs = (int) positive(section, "epochs", null, Integer.MAX_VALUE);
        List<Mode> modes = modes(section.get("modes"), modeTexts);
        long extendCount = positive(section, "extend/count", null, Long.MAX_VALUE);
        String extendDist = distribution(section, "extend/distribution", "zipfian");
        RateSpec extendRate = rate(section, "extend/rate");
        long runCount = positive(section, "run/count", null, Long.MAX_VALUE);
        String runDist = distribution(section, "run/distribution", "uniform");
        RateSpec runRate = rate(section, "run/rate");
        Map<String, Double> weights = weights(section.getOrDefault("run/weights", "ReadRecord:100"));
        long warmup = 0;
        if (section.get("warmup") != null) {
            warmup = number(section.get("warmup"), "warmup");
            if (warmup < 0) {
                throw new ConfigException(path("warmup"), "'" + section.get("warmup") + "' must be >= 0 seconds");
            }
        }
        String clean = section.getOrDefault("clean/method", "logical").trim();
        CleanMethod cleanMethod = switch (clean.toLowerCase(java.util.Locale.ROOT)) {
            case "logical" -> CleanMethod.LOGICAL;
            case "native" -> CleanMethod.NATIVE;
            default -> throw new ConfigException(path("clean/method"), "'" + clean + "' is not logical or native");
        };
        return new ExperimentSpec(epochs, modes, extendCount, extendDist, extendRate, runCount, runDist, runRate,
                weights, warmup, cleanMethod, freshInstance(section));
    }

    private static FreshInstance freshInstance(Map<String, String> section) throws ConfigException {
        String command = blankToNull(section.get("fresh/command"));
        String url = blankToNull(section.get("fresh/url"));
        String timeoutText = section.get("fresh/timeout");
        if (command == null && url == null) {
            if (timeoutText != null) {
                throw new ConfigException(path("fresh/timeout"), "'" + timeoutText + "' without fresh/command and"
                        + " fresh/url");
            }
            return null;
        }
        if (command == null) {
            throw new ConfigException(path("fresh/command"), "missing: fresh/url '" + url + "' needs the command"
                    + " that provides a fresh instance there");
        }
        if (url == null) {
            throw new ConfigException(path("fresh/url"), "missing: fresh/command '" + command + "' needs the url"
                    + " of the instance it provides");
        }
        long timeout = timeoutText == null ? DEFAULT_FRESH_TIMEOUT_SECONDS
                : positive(section, "fresh/timeout", null, 86_400);
        return new FreshInstance(command, url, timeout);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** The config every experiment phase runs with: the experiment's transaction types and the given phase. */
    public BenchmarkConfig phaseConfig(BenchmarkConfig base, PhaseConfig phase, long seed) {
        List<TransactionTypeConfig> types = TYPES.stream().map(t -> new TransactionTypeConfig(t, 0, 0)).toList();
        return new BenchmarkConfig(base.source(), base.target(), base.terminals(), base.loaderThreads(), seed,
                base.batchSize(), base.scaleFactor(), types, List.of(phase), base.parameters(), base.monitor(),
                base.experiment());
    }

    /** The extend phase: 100% ExtendRecord, {@code extend/count} operations, no warmup. */
    public PhaseConfig extendPhase(int terminals) {
        return new PhaseConfig(0, "extend", 0, extendCount, 0, extendRate, ArrivalKind.REGULAR, List.of(0.0, 100.0, 0.0),
                terminals, false, 0, Map.of("distribution", extendDistribution));
    }

    /** True when the run phase has weight on a transaction type that writes (main's run changes the primary). */
    public boolean runWrites() {
        return runWeights.entrySet().stream().anyMatch(e -> !e.getKey().equals("ReadRecord") && e.getValue() > 0);
    }

    /** The run phase: {@code run/weights}, {@code run/count} measured operations after {@code warmup} seconds. */
    public PhaseConfig runPhase(int terminals) {
        List<Double> w = TYPES.stream().map(t -> runWeights.getOrDefault(t, 0.0)).toList();
        return new PhaseConfig(0, "run", 0, runCount, warmupSeconds, runRate, ArrivalKind.REGULAR, w, terminals,
                false, 0, Map.of("distribution", runDistribution));
    }

    /** A plain, ordered description for experiment.json. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epochs", epochs);
        m.put("modes", modes.stream().map(Mode::label).toList());
        m.put("extendCount", extendCount);
        m.put("extendDistribution", extendDistribution);
        m.put("extendRate", rateText(extendRate));
        m.put("runCount", runCount);
        m.put("cleanMethod", cleanMethod.name().toLowerCase(java.util.Locale.ROOT));
        if (freshInstance != null) {
            // The url may carry a password (?password=): only its redacted form is written anywhere.
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("command", org.ivsbench.config.ConfigRedactor.redact(freshInstance.command()));
            f.put("url", org.ivsbench.config.ConfigRedactor.redact(freshInstance.url()));
            f.put("timeoutSeconds", freshInstance.timeoutSeconds());
            m.put("freshInstance", f);
        }
        m.put("runDistribution", runDistribution);
        m.put("runRate", rateText(runRate));
        m.put("runWeights", runWeights);
        m.put("warmupSeconds", warmupSeconds);
        return m;
    }

    static String rateText(RateSpec r) {
        return r.isOpen() ? Double.toString(r.opsPerSecond()) : "unlimited";
    }

    private static String path(String leaf) {
        return "experiment/" + leaf;
    }

    private static long number(String text, String leaf) throws ConfigException {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(path(leaf), "'" + text + "' is not a whole number");
        }
    }

    private static long positive(Map<String, String> s, String leaf, Long dflt, long max) throws ConfigException {
        String text = s.get(leaf);
        if (text == null) {
            if (dflt == null) {
                throw new ConfigException(path(leaf), "missing: the experiment needs it");
            }
            return dflt;
        }
        long v = number(text, leaf);
        if (v < 1 || v > max) {
            throw new ConfigException(path(leaf), "'" + text + "' must be between 1 and " + max);
        }
        return v;
    }

    private static List<Mode> modes(String list, List<String> repeated) throws ConfigException {
        List<String> texts = new ArrayList<>(repeated);
        if (list != null) {
            for (String part : list.split(",")) {
                texts.add(part);
            }
        }
        if (texts.isEmpty()) {
            return List.of(Mode.values());
        }
        List<Mode> modes = new ArrayList<>();
        for (String t : texts) {
            Mode m = Mode.byLabel(t);
            if (m == null) {
                throw new ConfigException(path("modes"), "'" + t.trim() + "' is not a mode; modes are main, clean,"
                        + " average-baseline, spread-baseline");
            }
            if (modes.contains(m)) {
                throw new ConfigException(path("modes"), "'" + t.trim() + "' is listed twice");
            }
            modes.add(m);
        }
        // Always run in the canonical order (main, clean, average-baseline, spread-baseline), whatever the
        // config lists; clean restores the snapshot taken before main's run phase, so the order cannot change it.
        modes.sort(null);
        return modes;
    }

    private static String distribution(Map<String, String> s, String leaf, String dflt) throws ConfigException {
        String text = s.getOrDefault(leaf, dflt);
        String name = text.trim().toLowerCase(Locale.ROOT);
        if (!Distributions.names().contains(name)) {
            throw new ConfigException(path(leaf), "'" + text + "' is not one of " + String.join(", ",
                    Distributions.names()));
        }
        return name;
    }

    private static RateSpec rate(Map<String, String> s, String leaf) throws ConfigException {
        String text = s.get(leaf);
        if (text == null || text.trim().equalsIgnoreCase("unlimited")) {
            return RateSpec.unlimited();
        }
        try {
            double v = Double.parseDouble(text.trim());
            if (!(v > 0) || Double.isInfinite(v)) {
                throw new NumberFormatException();
            }
            return RateSpec.open(v);
        } catch (NumberFormatException e) {
            throw new ConfigException(path(leaf), "'" + text + "' must be a positive number of ops/s or unlimited");
        }
    }

    private static Map<String, Double> weights(String text) throws ConfigException {
        Map<String, Double> w = new LinkedHashMap<>();
        double total = 0;
        for (String part : text.split(",")) {
            String[] kv = part.trim().split(":");
            String type = kv[0].trim();
            if (kv.length != 2 || !TYPES.contains(type)) {
                throw new ConfigException(path("run/weights"), "'" + text + "' must list Type:percent pairs of "
                        + String.join(", ", TYPES) + " (e.g. ReadRecord:50,UpdateRecord:50)");
            }
            double v;
            try {
                v = Double.parseDouble(kv[1].trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(path("run/weights"), "'" + text + "': '" + kv[1].trim()
                        + "' is not a number");
            }
            if (v < 0 || w.containsKey(type)) {
                throw new ConfigException(path("run/weights"), "'" + text + "': negative or repeated weight for "
                        + type);
            }
            w.put(type, v);
            total += v;
        }
        if (Math.abs(total - 100) > 1e-6) {
            throw new ConfigException(path("run/weights"), "'" + text + "' must add up to 100 (it adds up to "
                    + total + ")");
        }
        return w;
    }
}
