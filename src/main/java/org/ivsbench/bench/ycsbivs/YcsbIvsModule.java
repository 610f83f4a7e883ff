package org.ivsbench.bench.ycsbivs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ExperimentSupport;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.LoadReport;
import org.ivsbench.bench.Terminal;
import org.ivsbench.bench.ycsbivs.procedures.Procedure;
import org.ivsbench.bench.ycsbivs.procedures.Procedures;
import org.ivsbench.bench.ycsbivs.procedures.RangeRows;
import org.ivsbench.bench.ycsbivs.procedures.SectionKeys;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.Shrink;
import org.ivsbench.db.KindFeatures;
import org.ivsbench.db.ServerInfo;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.random.KeyShape;
import org.ivsbench.random.LiveKeys;
import org.ivsbench.random.LoadOrder;
import org.ivsbench.random.Seeds;

/**
 * ycsbivs: YCSB's core workload on a key/value table plus the YCSB-IVS EXTEND operation. One instance
 * per run: it holds the run's shared insert counter.
 */
public final class YcsbIvsModule implements BenchmarkModule {
    private static final Logger LOG = LoggerFactory.getLogger(YcsbIvsModule.class);
    static final String INSERT = "InsertRecord";

    static final String RANGE_DELETE = "RangeDeleteRecord";

    static final String RANGE_BY_KEYS = "RangeReadByKeysRecord";

    private static final int SHRUNK_SECTIONS = 64;

    private SharedKeys sharedKeys;

    private Map<String, SectionKeys> sectionKeys;
    /** The run's range-operation row totals (a module instance is one run). */
    private final RangeRows rangeRows = new RangeRows();

    @Override
    public String name() {
        return "ycsbivs";
    }

    @Override
    public List<String> supportedTransactionTypes() {
        return Procedures.names();
    }

    @Override
    public Set<String> parameterNames() {
        return YcsbIvsParameters.NAMES;
    }

    /**
     * --shrink: recordcount (the loaded records; without it scalefactor x 1000, capped generically) and each
     * section's records (the first {@value #SHRUNK_SECTIONS} sections: the flattened paths are per index).
     */
    @Override
    public Map<String, Long> shrinkCaps() {
        Map<String, Long> caps = new LinkedHashMap<>();
        caps.put("recordcount", Shrink.RECORDS);
        caps.put(Sections.NAME + "/section/records", Shrink.RECORDS);
        for (int i = 1; i <= SHRUNK_SECTIONS; i++) {
            caps.put(Sections.NAME + "/section[" + i + "]/records", Shrink.RECORDS);
        }
        return caps;
    }

    @Override
    public Set<String> phaseParameterNames() {
        return YcsbIvsParameters.PHASE_NAMES;
    }

    @Override
    public void validate(BenchmarkConfig config) throws ConfigException {
        YcsbIvsParameters parameters = YcsbIvsParameters.validate(config);
        List<String> types = config.transactionTypeNames();
        for (int i = 0; i < types.size(); i++) {
            if (Procedures.byName(types.get(i)).isEmpty()) {
                throw new ConfigException(
                        "transactiontypes/transactiontype[" + (i + 1) + "]/name",
                        "'" + types.get(i) + "' is not a ycsbivs transaction type; known: "
                                + String.join(", ", Procedures.names()));
            }
            TargetKind kind = TargetKinds.of(config.target().type());
            if (types.get(i).equals(RANGE_DELETE) && !kind.features().has(KindFeatures.Feature.RANGE_DELETE)) {
                throw new ConfigException(
                        "transactiontypes/transactiontype[" + (i + 1) + "]/name",
                        "'" + RANGE_DELETE + "' is not available for type "
                                + config.target().type()
                                + " (" + kind.displayName() + " does not keep records in key order, so it cannot delete"
                                + " a key range); remove it");
            }
            if (types.get(i).equals(RANGE_BY_KEYS)
                    || (types.get(i).equals(RANGE_DELETE)
                            && parameters.sections().present())) {
                checkRangeBetweenKeys(
                        config,
                        kind,
                        parameters,
                        i,
                        types.get(i),
                        "transactiontypes/transactiontype[" + (i + 1) + "]/name");
            }
        }
    }

    /**
     * RangeReadByKeysRecord asks the server for the records between two keys, the end n - 1 key numbers after the
     * start, and so does RangeDeleteRecord with sections (it deletes the records between a live key and the n - 1-th
     * live key after it, whose numbers the live set gives up): the kind must keep records in key order, and every
     * key space it works on (the table's, or each section's) must have string order = number order, or the range
     * would not hold the n records meant. The kind is checked when the type is listed (as RangeDeleteRecord's),
     * the keys when a phase gives it a weight (or an experiment may): a listed type no phase runs means nothing
     * about the keys.
     */
    private static void checkRangeBetweenKeys(
            BenchmarkConfig config, TargetKind kind, YcsbIvsParameters parameters, int type, String name, String path)
            throws ConfigException {
        boolean read = name.equals(RANGE_BY_KEYS);
        if (!kind.features().has(KindFeatures.Feature.RANGE_BETWEEN)) {
            throw new ConfigException(
                    path,
                    "'" + name + "' is not available for type "
                            + config.target().type() + " ("
                            + kind.displayName() + " does not keep records in key order, so it cannot "
                            + (read ? "read" : "delete") + " the records between two keys)"
                            + (read ? "; use RangeReadRecord or remove it" : "; remove it"));
        }
        if (config.experiment() == null && !weighted(config, type)) {
            return;
        }
        String why = null;
        if (parameters.sections().present()) {
            for (Sections.Section s : parameters.sections().list()) {
                String own = whyKeyOrderIsNotNumberOrder(s.shape());
                if (own != null) {
                    why = "section '" + s.name() + "': " + own;
                    break;
                }
            }
        } else {
            why = whyKeyOrderIsNotNumberOrder(parameters.keys().shape());
        }
        if (why != null) {
            throw new ConfigException(
                    path,
                    "'" + name + "' needs keys whose string order is their number order ("
                            + (read
                                    ? "its end key is the n-th key after its start"
                                    : "with <sections> it deletes the records between a live key and the n-th live"
                                            + " key after it")
                            + "): " + why);
        }
    }

    /**
     * Why a key shape's string order is not its numbers' order, or null when it is: ordered numbers, zero-padded,
     * and no prefix segments (a key's prefix is drawn per number). When null, the keys between two keys are exactly
     * those of the numbers between theirs.
     */
    private static String whyKeyOrderIsNotNumberOrder(KeyShape shape) {
        if (!shape.ordered()) {
            return "the keys are hashed (keyorder hashed)";
        }
        if (!shape.padded()) {
            return "YCSB's ordered keys are not zero-padded (user10 sorts before user9); a <keys> shape pads them,"
                    + " e.g. <keys><length>14</length></keys>";
        }
        if (!shape.segments().isEmpty()) {
            return "a key's prefix segments are drawn per key number, so prefixes do not follow number order";
        }
        return null;
    }

    /** The range-operation row totals of this run, for checks against the server's counts. */
    public RangeRows rangeRows() {
        return rangeRows;
    }

    @Override
    public Optional<ExperimentSupport> experiment() {
        return Optional.of(YcsbIvsExperiment.SUPPORT);
    }

    @Override
    public Optional<String> tableEngine(BenchmarkConfig config) {
        return Optional.ofNullable(config.parameters().get("engine"));
    }

    @Override
    public void create(BenchmarkConfig config, Target target) throws TargetException {
        target.createTable(parameters(config).tableSpec());
    }

    @Override
    public void checkReady(BenchmarkConfig config, Target target) throws TargetException {
        YcsbIvsParameters p = parameters(config);
        String configured = p.tableSpec().engine();
        Optional<ServerInfo> info = target.capability(ServerInfo.class);
        Optional<String> actual = info.isEmpty() ? Optional.empty() : info.get().tableEngine(p.table());
        if (configured != null
                && !configured.isBlank()
                && actual.isPresent()
                && !actual.get().equalsIgnoreCase(configured)) {
            throw new TargetException("table " + p.table() + " uses the " + actual.get() + " engine, but <engine> is "
                    + configured + ": give --create to re-create it with " + configured
                    + " (it drops the table), or set"
                    + " <engine>" + actual.get() + "</engine>");
        }
    }

    @Override
    public void clear(BenchmarkConfig config, Target target) throws TargetException {
        target.dropTable(parameters(config).table());
    }

    @Override
    public LoadReport load(BenchmarkConfig config, Target target, LoadProgress progress)
            throws TargetException, InterruptedException {
        YcsbIvsParameters parameters = parameters(config);
        if (parameters.sections().present()) {
            return new SectionsLoader(config, parameters).load(target, progress);
        }
        if (parameters.keys().sortedness() != null) {
            return new SortedLoad(parameters, config.randomSeed(), config.batchSize()).load(target, progress);
        }
        return new YcsbIvsLoader(config, parameters).load(target, progress);
    }

    @Override
    public Terminal newTerminal(BenchmarkConfig config, Target target, int terminalId) throws TargetException {
        YcsbIvsParameters parameters = parameters(config);
        List<Procedure> procedures = new ArrayList<>();
        for (String type : config.transactionTypeNames()) {
            procedures.add(Procedures.byName(type)
                    .orElseThrow(() -> new TargetException(
                            "'" + type + "' is not a ycsbivs transaction type (validate() should have said so)")));
        }
        return new YcsbIvsTerminal(
                config,
                target,
                terminalId,
                parameters,
                procedures,
                sharedKeys(config, parameters),
                rangeRows,
                sectionKeys(config, parameters));
    }

    /** The sections' key spaces of this run, made when the first terminal opens (their loaded keys live). */
    private synchronized Map<String, SectionKeys> sectionKeys(BenchmarkConfig config, YcsbIvsParameters parameters) {
        if (sectionKeys == null) {
            Map<String, SectionKeys> made = new LinkedHashMap<>();
            List<Sections.Section> list = parameters.sections().list();
            for (int i = 0; i < list.size(); i++) {
                Sections.Section s = list.get(i);
                InsertPlan plan = s.insertPlan();
                int[] order = null;
                if (plan != null) {
                    LoadOrder.Result r = LoadOrder.generate(
                            s.shape(),
                            s.records(),
                            plan.inserts(),
                            plan.sortedness(),
                            plan.window(),
                            Seeds.forStream(config.randomSeed(), "insertorder", i));
                    order = r.keynums();
                    LOG.info(String.format(
                            Locale.ROOT,
                            "Section %s: insert order sortedness K=%.4f (requested %.4f), L=%.4f (displacement"
                                    + " window %,d) over the first %,d inserts",
                            s.name(),
                            r.measured().k(),
                            plan.sortedness(),
                            r.measured().l(),
                            plan.window(),
                            plan.inserts()));
                }
                HotRange hot = s.hotRange();
                made.put(
                        s.name(),
                        new SectionKeys(
                                s.name(),
                                s.records(),
                                s::key,
                                order,
                                hot == null ? null : hot.hotIn(s.shape()),
                                hot == null ? 0 : hot.share()));
                if (hot != null) {
                    LiveKeys live = made.get(s.name()).live();
                    LOG.info(String.format(
                            Locale.ROOT,
                            "Section %s: hot range (the first %,d of %,d prefixes) holds %,d of %,d loaded keys"
                                    + " (%.1f %%) and gets %.1f %% of the key choices",
                            s.name(),
                            hot.prefixes(),
                            s.shape().prefixCount(),
                            live.hotLiveCount(),
                            live.liveCount(),
                            live.liveCount() == 0 ? 0.0 : 100.0 * live.hotLiveCount() / live.liveCount(),
                            100 * hot.share()));
                }
            }
            sectionKeys = made;
        }
        return sectionKeys;
    }

    /** The live keys of a section in this run (after its terminals opened), for checks against the database. */
    public synchronized Optional<SectionKeys> section(String name) {
        return sectionKeys == null ? Optional.empty() : Optional.ofNullable(sectionKeys.get(name));
    }

    private synchronized SharedKeys sharedKeys(BenchmarkConfig config, YcsbIvsParameters parameters) {
        if (sharedKeys == null) {
            sharedKeys = new SharedKeys(
                    parameters.recordCount(),
                    inserts(config) ? config.transactionTypeNames().indexOf(INSERT) : -1,
                    config.shard());
        }
        return sharedKeys;
    }

    /** Whether any phase gives InsertRecord a positive weight. */
    private static boolean inserts(BenchmarkConfig config) {
        return weighted(config, config.transactionTypeNames().indexOf(INSERT));
    }

    /** Whether any phase gives the transaction type at {@code index} (-1: none) a positive weight. */
    private static boolean weighted(BenchmarkConfig config, int index) {
        if (index < 0) {
            return false;
        }
        for (PhaseConfig phase : config.phases()) {
            if (index < phase.weights().size() && phase.weights().get(index) > 0) {
                return true;
            }
        }
        return false;
    }

    /** Parameters were validated by the CLI; a config that skipped validation fails here, not later. */
    private static YcsbIvsParameters parameters(BenchmarkConfig config) throws TargetException {
        try {
            return YcsbIvsParameters.from(config);
        } catch (ConfigException e) {
            throw new TargetException("invalid ycsbivs configuration: " + e.getMessage());
        }
    }
}
