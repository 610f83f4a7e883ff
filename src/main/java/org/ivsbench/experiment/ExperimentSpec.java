package org.ivsbench.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ExperimentLeaves;
import org.ivsbench.bench.ExperimentSupport;
import org.ivsbench.bench.ExperimentWorkload;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.ConfigRedactor;
import org.ivsbench.config.Shrink;
import org.ivsbench.db.KindFeatures;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;

/**
 * The {@code <experiment>} section of a config, validated. Errors name {@code experiment/<leaf>} and quote the
 * bad value. The generic leaves (epochs, modes, warmup, clean/method, fresh/...) are parsed here; the
 * benchmark's {@link ExperimentSupport} parses its own into the {@link ExperimentWorkload} that builds every
 * phase, so the config needs no {@code <transactiontypes>} or {@code <works>} (ignored when present).
 */
public record ExperimentSpec(
        int epochs,
        List<Mode> modes,
        long warmupSeconds,
        CleanMethod cleanMethod,
        FreshInstance freshInstance,
        ExperimentWorkload workload,
        BaselineVolumes baselineVolumes,
        long quiesceTimeoutSeconds) {

    /** How clean-run copies the primary: through the Target (every backend) or with the server's own tools. */
    public enum CleanMethod {
        LOGICAL,
        NATIVE
    }

    /**
     * experiment/baselines: where a baseline's data volume comes from. {@code MEASURED} (the default): the
     * primary after the epoch's extend phase. {@code COMPUTED} (baselines-only experiments): the loaded volume
     * plus what the extends of epochs 1 to k add when none is skipped at the cap; no extend phase runs.
     */
    public enum BaselineVolumes {
        MEASURED,
        COMPUTED
    }

    /**
     * experiment/fresh: the fresh databases of clean-run and the baselines go to a server instance that
     * {@code command} (run with {@code sh -c}, at most {@code timeoutSeconds}) provides fresh before each of
     * those modes, reached at {@code url} with the primary's credentials and options. Null: fresh databases
     * on the primary's server.
     */
    public record FreshInstance(String command, String url, long timeoutSeconds) {}

    static final long DEFAULT_FRESH_TIMEOUT_SECONDS = 300;

    /** The leaves of every experiment, whatever the benchmark. */
    static final Set<String> LEAVES = Set.of(
            "epochs",
            "modes",
            "warmup",
            "clean/method",
            "fresh/command",
            "fresh/url",
            "fresh/timeout",
            Trials.LEAF,
            "baselines",
            "quiesce/timeout");

    public ExperimentSpec {
        modes = List.copyOf(modes);
    }

    /**
     * How {@code --shrink} caps an {@code <experiment>}: the generic leaves (epochs, warmup, trials) and the ones
     * the benchmark's experiment declares ({@link ExperimentSupport#shrinkCaps}).
     */
    public static Map<String, Long> shrinkCaps(BenchmarkModule module) {
        Map<String, Long> caps = new LinkedHashMap<>();
        caps.put("epochs", Shrink.EPOCHS);
        caps.put("warmup", Shrink.WARMUP_SECONDS);
        caps.put(Trials.LEAF, Shrink.TRIALS);
        caps.put("quiesce/timeout", Shrink.QUIESCE_SECONDS);
        module.experiment().ifPresent(s -> caps.putAll(s.shrinkCaps()));
        return caps;
    }

    /**
     * {@code config} with the experiment's defaults that are sizes written out, so that {@code --shrink} caps them
     * like a value the file sets: the quiescence wait's timeout ({@value QuiescenceWait#DEFAULT_TIMEOUT_SECONDS} s
     * when absent). A config without an experiment, or one that sets it, is returned as it is.
     */
    public static BenchmarkConfig withSizedDefaults(BenchmarkConfig config) {
        if (config.experiment() == null || config.experiment().containsKey("quiesce/timeout")) {
            return config;
        }
        Map<String, String> experiment = new LinkedHashMap<>(config.experiment());
        experiment.put("quiesce/timeout", Long.toString(QuiescenceWait.DEFAULT_TIMEOUT_SECONDS));
        return config.toBuilder().experiment(experiment).build();
    }

    /**
     * Parses the config's experiment section; null when the config has none. A benchmark that offers no
     * experiment makes the section an error.
     */
    public static ExperimentSpec parse(BenchmarkConfig config, BenchmarkModule module) throws ConfigException {
        if (config.experiment() == null) {
            return null;
        }
        ExperimentSupport support = module.experiment()
                .orElseThrow(() -> new ConfigException(
                        "experiment",
                        "benchmark " + module.name() + " offers no experiment; remove <experiment> to run <works>"));
        ExperimentSpec spec = parse(config.experiment(), support, config);
        String type = config.target().type();
        TargetKind kind = TargetKinds.of(type);
        if (spec.cleanMethod() == CleanMethod.NATIVE && !kind.features().has(KindFeatures.Feature.NATIVE_SNAPSHOT)) {
            throw new ConfigException(
                    path("clean/method"),
                    "'native' uses the server's own dump tools and is" + " available for " + nativeKinds()
                            + " targets, not " + type + "; use 'logical'");
        }
        for (Mode mode : spec.modes()) {
            if (mode != Mode.MAIN && !kind.features().has(KindFeatures.Feature.FRESH_DATABASES)) {
                throw new ConfigException(
                        path("modes"),
                        "'" + mode.label() + "' runs on a fresh database, which" + " type " + type
                                + " cannot make; use main only");
            }
        }
        FreshInstance fresh = spec.freshInstance();
        if (fresh != null) {
            String url = fresh.url();
            if (kind.serverProcess().isEmpty()) {
                throw new ConfigException(
                        path("fresh/url"),
                        "a fresh server instance is for server databases; " + kind.displayName()
                                + "'s fresh databases are already new ones beside the primary");
            }
            if (!kind.accepts(url)) {
                throw new ConfigException(
                        path("fresh/url"), "'" + url + "' is not a " + type + " url like the" + " target's");
            }
            if (url.equals(config.target().url())) {
                throw new ConfigException(
                        path("fresh/url"),
                        "'" + url + "' is the primary's own url: the fresh" + " instance must be another server");
            }
        }
        return spec;
    }

    private static String nativeKinds() {
        List<String> names = new ArrayList<>();
        for (TargetKind k : TargetKinds.all()) {
            if (k.features().has(KindFeatures.Feature.NATIVE_SNAPSHOT)) {
                names.addAll(k.names());
            }
        }
        return String.join("/", names);
    }

    /** Parses {@code section} (the flattened experiment element) with the benchmark's {@code support}. */
    public static ExperimentSpec parse(Map<String, String> section, ExperimentSupport support, BenchmarkConfig config)
            throws ConfigException {
        Set<String> known = new TreeSet<>(LEAVES);
        known.addAll(support.leaves());
        List<String> modeTexts = new ArrayList<>();
        for (Map.Entry<String, String> e : section.entrySet()) {
            String leaf = e.getKey();
            if (leaf.equals("modes/mode") || leaf.matches("modes/mode\\[\\d+]")) {
                modeTexts.add(e.getValue());
            } else if (!known.contains(leaf)) {
                throw new ConfigException(path(leaf), "unknown experiment element; known: " + String.join(", ", known));
            }
        }
        int epochs = (int) ExperimentLeaves.positive(section, "epochs", null, Integer.MAX_VALUE);
        List<Mode> modes = modes(section.get("modes"), modeTexts);
        Trials.of(section); // validated here; ExperimentTrials runs them
        ExperimentWorkload workload = support.parse(section, config);
        long warmup = 0;
        if (section.get("warmup") != null) {
            warmup = ExperimentLeaves.number(section.get("warmup"), "warmup");
            if (warmup < 0) {
                throw new ConfigException(path("warmup"), "'" + section.get("warmup") + "' must be >= 0 seconds");
            }
        }
        String clean =
                section.getOrDefault("clean/method", defaultCleanMethod(config)).trim();
        CleanMethod cleanMethod =
                switch (clean.toLowerCase(Locale.ROOT)) {
                    case "logical" -> CleanMethod.LOGICAL;
                    case "native" -> CleanMethod.NATIVE;
                    default ->
                        throw new ConfigException(path("clean/method"), "'" + clean + "' is not logical or native");
                };
        return new ExperimentSpec(
                epochs,
                modes,
                warmup,
                cleanMethod,
                freshInstance(section),
                workload,
                baselineVolumes(section, modes, workload),
                quiesceTimeout(section));
    }

    /**
     * experiment/quiesce/timeout: the longest wait, in seconds, for the server to be quiet before each run phase
     * ({@link QuiescenceWait}); 0 disables the wait.
     */
    private static long quiesceTimeout(Map<String, String> section) throws ConfigException {
        String text = section.get("quiesce/timeout");
        if (text == null) {
            return QuiescenceWait.DEFAULT_TIMEOUT_SECONDS;
        }
        long seconds = ExperimentLeaves.number(text, "quiesce/timeout");
        if (seconds < 0 || seconds > 86_400) {
            throw new ConfigException(
                    path("quiesce/timeout"), "'" + text + "' must be between 0 (no wait) and 86400 seconds");
        }
        return seconds;
    }

    /** experiment/baselines: {@code measured} (default) or {@code computed}, which only a baselines-only experiment may use. */
    private static BaselineVolumes baselineVolumes(
            Map<String, String> section, List<Mode> modes, ExperimentWorkload workload) throws ConfigException {
        String text = section.getOrDefault("baselines", "measured").trim();
        switch (text.toLowerCase(Locale.ROOT)) {
            case "measured" -> {
                return BaselineVolumes.MEASURED;
            }
            case "computed" -> {
                List<String> others = modes.stream()
                        .filter(m -> m == Mode.MAIN || m == Mode.CLEAN)
                        .map(Mode::label)
                        .toList();
                if (!others.isEmpty()) {
                    throw new ConfigException(
                            path("baselines"),
                            "'" + text + "' skips the extend phases, so it is for a baselines-only experiment"
                                    + " (modes average-baseline, spread-baseline); these modes need them: "
                                    + String.join(", ", others));
                }
                if (workload.extendedBytes(1).isEmpty()) {
                    throw new ConfigException(
                            path("baselines"),
                            "'" + text + "': this benchmark cannot compute the extends' volume; use measured");
                }
                return BaselineVolumes.COMPUTED;
            }
            default -> throw new ConfigException(path("baselines"), "'" + text + "' is not measured or computed");
        }
    }

    /**
     * The paper restored clean-run's copy with the platform's own backup tools: {@code native} where the target's
     * kind has them, {@code logical} (through the client) elsewhere.
     */
    static String defaultCleanMethod(BenchmarkConfig config) {
        boolean hasNative = config.target() != null
                && TargetKinds.find(config.target().type())
                        .map(k -> k.features().has(KindFeatures.Feature.NATIVE_SNAPSHOT))
                        .orElse(false);
        return hasNative ? "native" : "logical";
    }

    private static FreshInstance freshInstance(Map<String, String> section) throws ConfigException {
        String command = blankToNull(section.get("fresh/command"));
        String url = blankToNull(section.get("fresh/url"));
        String timeoutText = section.get("fresh/timeout");
        if (command == null && url == null) {
            if (timeoutText != null) {
                throw new ConfigException(
                        path("fresh/timeout"), "'" + timeoutText + "' without fresh/command and" + " fresh/url");
            }
            return null;
        }
        if (command == null) {
            throw new ConfigException(
                    path("fresh/command"),
                    "missing: fresh/url '" + url + "' needs the command" + " that provides a fresh instance there");
        }
        if (url == null) {
            throw new ConfigException(
                    path("fresh/url"),
                    "missing: fresh/command '" + command + "' needs the url" + " of the instance it provides");
        }
        long timeout = timeoutText == null
                ? DEFAULT_FRESH_TIMEOUT_SECONDS
                : ExperimentLeaves.positive(section, "fresh/timeout", null, 86_400);
        return new FreshInstance(command, url, timeout);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** A plain, ordered description for experiment.json. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epochs", epochs);
        m.put("modes", modes.stream().map(Mode::label).toList());
        m.putAll(workload.describe());
        m.put("cleanMethod", cleanMethod.name().toLowerCase(Locale.ROOT));
        if (freshInstance != null) {
            // The url may carry a password (?password=): only its redacted form is written anywhere.
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("command", ConfigRedactor.redact(freshInstance.command()));
            f.put("url", ConfigRedactor.redact(freshInstance.url()));
            f.put("timeoutSeconds", freshInstance.timeoutSeconds());
            m.put("freshInstance", f);
        }
        m.put("warmupSeconds", warmupSeconds);
        if (quiesceTimeoutSeconds != QuiescenceWait.DEFAULT_TIMEOUT_SECONDS) {
            // Only when not the default: experiments from before the option keep their description (and resume).
            m.put("quiesceTimeoutSeconds", quiesceTimeoutSeconds);
        }
        if (baselineVolumes == BaselineVolumes.COMPUTED) {
            // Only when set: experiments from before the option keep their description (and can be resumed).
            m.put("baselines", "computed");
        }
        return m;
    }

    private static String path(String leaf) {
        return ExperimentLeaves.path(leaf);
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
                throw new ConfigException(
                        path("modes"),
                        "'" + t.trim() + "' is not a mode; modes are main, clean,"
                                + " average-baseline, spread-baseline");
            }
            if (modes.contains(m)) {
                throw new ConfigException(path("modes"), "'" + t.trim() + "' is listed twice");
            }
            modes.add(m);
        }
        // Always run in the canonical order (main, clean, average-baseline, spread-baseline), whatever the
        // config lists; clean restores the primary as the extend phase left it, so the order cannot change it.
        modes.sort(null);
        return modes;
    }
}
