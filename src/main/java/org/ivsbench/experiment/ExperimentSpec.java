package org.ivsbench.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ExperimentSupport;
import org.ivsbench.bench.ExperimentWorkload;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.ConfigRedactor;
import org.ivsbench.config.LeafView;
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
        FreshInstance maintainedInstance,
        ExperimentWorkload workload,
        BaselineVolumes baselineVolumes,
        long quiesceTimeoutSeconds,
        int slices) {

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
            "maintained/command",
            "maintained/url",
            "maintained/timeout",
            Trials.LEAF,
            "baselines",
            "quiesce/timeout",
            "slices");

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
        LeafView leaves = config.experimentView();
        String type = config.target().type();
        TargetKind kind = TargetKinds.of(type);
        if (spec.cleanMethod() == CleanMethod.NATIVE && !kind.features().has(KindFeatures.Feature.NATIVE_SNAPSHOT)) {
            throw leaves.error(
                    "clean/method",
                    "'native' uses the server's own dump tools and is" + " available for " + nativeKinds()
                            + " targets, not " + type + "; use 'logical'");
        }
        if (spec.modes().contains(Mode.MAINTAINED) && !kind.features().has(KindFeatures.Feature.REORGANIZATION)) {
            throw leaves.error(
                    "modes",
                    "'main-maintained' reorganizes a copy of the primary with the platform's own maintenance, which"
                            + " type " + type + " does not offer here");
        }
        if (spec.modes().contains(Mode.MAINTAINED) && spec.workload().runWrites() && spec.slices() == 1) {
            throw leaves.error(
                    "modes",
                    "'main-maintained' copies the primary after main's run phase, which writes here (run/weights):"
                            + " the copy would hold those writes; set experiment/slices above 1 (the copy is then"
                            + " made before any run phase) or use a run phase that only reads");
        }
        FreshInstance copy = spec.maintainedInstance();
        if (copy != null && copy.url().equals(config.target().url())) {
            throw leaves.error(
                    "maintained/url", "'" + copy.url() + "' is the primary's own url: the copy must be another server");
        }
        if (copy != null
                && spec.freshInstance() != null
                && copy.url().equals(spec.freshInstance().url())) {
            throw leaves.error(
                    "maintained/url", "'" + copy.url() + "' is fresh/url too: the copy needs a server of its own");
        }
        for (Mode mode : spec.modes()) {
            if (mode != Mode.MAIN
                    && mode != Mode.MAINTAINED
                    && !kind.features().has(KindFeatures.Feature.FRESH_DATABASES)) {
                throw leaves.error(
                        "modes",
                        "'" + mode.label() + "' runs on a fresh database, which" + " type " + type
                                + " cannot make; use main only");
            }
        }
        FreshInstance fresh = spec.freshInstance();
        if (fresh != null) {
            String url = fresh.url();
            if (kind.serverProcess().isEmpty()) {
                throw leaves.error(
                        "fresh/url",
                        "a fresh server instance is for server databases; " + kind.displayName()
                                + "'s fresh databases are already new ones beside the primary");
            }
            if (!kind.accepts(url)) {
                throw leaves.error("fresh/url", "'" + url + "' is not a " + type + " url like the" + " target's");
            }
            if (url.equals(config.target().url())) {
                throw leaves.error(
                        "fresh/url",
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
        LeafView leaves = LeafView.of(section, "experiment");
        Set<String> known = new TreeSet<>(LEAVES);
        known.addAll(support.leaves());
        List<String> modeTexts = new ArrayList<>();
        for (String leaf : leaves.names()) {
            if (leaf.equals("modes/mode") || leaf.matches("modes/mode\\[\\d+]")) {
                modeTexts.add(leaves.leaf(leaf));
            } else if (!known.contains(leaf)) {
                throw leaves.unknown(leaf, known);
            }
        }
        int epochs = (int) leaves.requiredLong("epochs", 1, Integer.MAX_VALUE, "the experiment needs it");
        List<Mode> modes = modes(leaves, modeTexts);
        Trials.of(section); // validated here; ExperimentTrials runs them
        ExperimentWorkload workload = support.parse(leaves, config);
        long warmup = leaves.longAtLeast("warmup", 0, 0);
        String clean = leaves.choice("clean/method", defaultCleanMethod(config), List.of("logical", "native"));
        int slices = slices(leaves, workload, config, warmup);
        return new ExperimentSpec(
                epochs,
                modes,
                warmup,
                CleanMethod.valueOf(clean.toUpperCase(Locale.ROOT)),
                freshInstance(leaves, "fresh"),
                maintainedInstance(leaves, modes),
                workload,
                baselineVolumes(leaves, modes, workload),
                leaves.longBetween("quiesce/timeout", QuiescenceWait.DEFAULT_TIMEOUT_SECONDS, 0, 86_400),
                slices);
    }

    /**
     * experiment/slices: the run phase of every mode in this many slices, the modes' slices alternating
     * ({@link InterleavedModes}); 1 (the default) runs each mode's run phase whole, one mode after the other. A
     * count-based run phase needs at least one operation per slice, a timed one a second per slice.
     */
    private static int slices(LeafView leaves, ExperimentWorkload workload, BenchmarkConfig config, long warmup)
            throws ConfigException {
        int slices = (int) leaves.longBetween("slices", 1, 1, InterleavedModes.MAX_SLICES);
        if (slices == 1 || config == null) {
            return slices;
        }
        var run = workload.runPhase(config, warmup, 0).phases().get(0);
        long units = run.count() > 0 ? run.count() : run.timeSeconds();
        if (units < slices) {
            throw leaves.error(
                    "slices",
                    "'" + slices + "' slices of a run phase of " + units + (run.count() > 0 ? " operations" : " s")
                            + ": at most " + units);
        }
        return slices;
    }

    /** experiment/baselines: {@code measured} (default) or {@code computed}, which only a baselines-only experiment may use. */
    private static BaselineVolumes baselineVolumes(LeafView leaves, List<Mode> modes, ExperimentWorkload workload)
            throws ConfigException {
        String text = leaves.choice("baselines", "measured", List.of("measured", "computed"));
        if (text.equals("measured")) {
            return BaselineVolumes.MEASURED;
        }
        List<String> others = modes.stream()
                .filter(m -> m == Mode.MAIN || m == Mode.CLEAN || m == Mode.MAINTAINED)
                .map(Mode::label)
                .toList();
        if (!others.isEmpty()) {
            throw leaves.error(
                    "baselines",
                    "'" + leaves.leaf("baselines") + "' skips the extend phases, so it is for a baselines-only"
                            + " experiment (modes average-baseline, spread-baseline); these modes need them: "
                            + String.join(", ", others));
        }
        if (workload.extendedBytes(1).isEmpty()) {
            throw leaves.error(
                    "baselines",
                    "'" + leaves.leaf("baselines")
                            + "': this benchmark cannot compute the extends' volume; use measured");
        }
        return BaselineVolumes.COMPUTED;
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

    /**
     * experiment/maintained: the instance main-maintained reads, a physical copy of the primary that
     * {@code command} makes before each epoch's main-maintained run phase (e.g. scripts/mariadb.sh restart-copy),
     * reached at {@code url}. Needed by that mode and only by it.
     */
    private static FreshInstance maintainedInstance(LeafView leaves, List<Mode> modes) throws ConfigException {
        FreshInstance m = freshInstance(leaves, "maintained");
        boolean wanted = modes.contains(Mode.MAINTAINED);
        if (wanted && m == null) {
            throw leaves.error(
                    "maintained/command",
                    "missing: mode main-maintained reads a physical copy of the primary, made by this command"
                            + " (e.g. scripts/mariadb.sh restart-copy) and reached at maintained/url");
        }
        if (!wanted && m != null) {
            throw leaves.error(
                    "maintained/command", "set, but modes do not include main-maintained, which alone uses it");
        }
        return m;
    }

    private static FreshInstance freshInstance(LeafView leaves, String element) throws ConfigException {
        String command = blankToNull(leaves.leaf(element + "/command"));
        String url = blankToNull(leaves.leaf(element + "/url"));
        String timeoutText = leaves.leaf(element + "/timeout");
        if (command == null && url == null) {
            if (timeoutText != null) {
                throw leaves.error(
                        element + "/timeout",
                        "'" + timeoutText + "' without " + element + "/command and " + element + "/url");
            }
            return null;
        }
        if (command == null) {
            throw leaves.error(
                    element + "/command",
                    "missing: " + element + "/url '" + url + "' needs the command that provides the instance there");
        }
        if (url == null) {
            throw leaves.error(
                    element + "/url",
                    "missing: " + element + "/command '" + command + "' needs the url of the instance it provides");
        }
        long timeout = leaves.longBetween(element + "/timeout", DEFAULT_FRESH_TIMEOUT_SECONDS, 1, 86_400);
        return new FreshInstance(command, url, timeout);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** A plain, ordered description for experiment.json. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epochs", epochs);
        m.put("modes", modes.stream().map(Mode::label).toList());
        m.putAll(workload.describe());
        m.put("cleanMethod", cleanMethod.name().toLowerCase(Locale.ROOT));
        if (freshInstance != null) {
            m.put("freshInstance", describe(freshInstance));
        }
        if (maintainedInstance != null) {
            m.put("maintainedInstance", describe(maintainedInstance));
        }
        m.put("warmupSeconds", warmupSeconds);
        if (quiesceTimeoutSeconds != QuiescenceWait.DEFAULT_TIMEOUT_SECONDS) {
            // Only when not the default: experiments from before the option keep their description (and resume).
            m.put("quiesceTimeoutSeconds", quiesceTimeoutSeconds);
        }
        if (slices != 1) {
            // Only when set: experiments from before the option keep their description (and can be resumed).
            m.put("slices", slices);
        }
        if (baselineVolumes == BaselineVolumes.COMPUTED) {
            // Only when set: experiments from before the option keep their description (and can be resumed).
            m.put("baselines", "computed");
        }
        return m;
    }

    /** An instance for experiment.json; the url may carry a password (?password=): only its redacted form. */
    private static Map<String, Object> describe(FreshInstance instance) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("command", ConfigRedactor.redact(instance.command()));
        f.put("url", ConfigRedactor.redact(instance.url()));
        f.put("timeoutSeconds", instance.timeoutSeconds());
        return f;
    }

    private static List<Mode> modes(LeafView leaves, List<String> repeated) throws ConfigException {
        List<String> texts = new ArrayList<>(repeated);
        String list = leaves.leaf("modes");
        if (list != null) {
            for (String part : list.split(",")) {
                texts.add(part.strip());
            }
        }
        if (texts.isEmpty()) {
            return Mode.PAPER;
        }
        List<Mode> modes = new ArrayList<>();
        for (String t : texts) {
            Mode m = Mode.byLabel(t);
            if (m == null) {
                throw leaves.error(
                        "modes",
                        "'" + t + "' is not a mode; modes are main, clean, average-baseline, spread-baseline,"
                                + " main-maintained");
            }
            if (modes.contains(m)) {
                throw leaves.error("modes", "'" + t + "' is listed twice");
            }
            modes.add(m);
        }
        // Always run in the canonical order (main, clean, average-baseline, spread-baseline), whatever the
        // config lists; clean restores the primary as the extend phase left it, so the order cannot change it.
        modes.sort(null);
        return modes;
    }
}
