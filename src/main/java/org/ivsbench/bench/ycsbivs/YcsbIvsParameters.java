package org.ivsbench.bench.ycsbivs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.ivsbench.bench.ycsbivs.procedures.Procedures;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.LeafView;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.KindFeatures;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.random.DistributionSpec;
import org.ivsbench.random.KeyDistributions;
import org.ivsbench.random.LengthDistribution;

/**
 * The ycsbivs settings of a run, parsed and validated from the config's benchmark parameters. Defaults
 * are YCSB's core workload and the YCSB-IVS paper's (FACTS.md): 10 fields of 100 bytes, extends of 100
 * bytes, a 1,600,000-byte cap per field. Sizes are in bytes; values are ASCII, so bytes = characters.
 */
public record YcsbIvsParameters(
        long recordCount,
        int fieldCount,
        int fieldLength,
        int extendFieldLength,
        long maxFieldLength,
        ExtendMethod extendMethod,
        String engine,
        boolean orderedKeys,
        String table,
        int scanLength,
        boolean readAllFields,
        boolean writeAllFields,
        LengthDistribution fieldLengths,
        LengthDistribution extendLengths,
        LengthDistribution rangeLengths,
        KeysSection keys,
        Sections sections) {

    public static final String KEY_COLUMN = "YCSB_KEY";
    public static final String DEFAULT_DISTRIBUTION = "zipfian";
    /** Per-phase element. The paper's read phases set it to uniform; YCSB's core default is zipfian. */
    public static final String DISTRIBUTION = "distribution";
    /** Per-phase section: one element per transaction type, overriding {@link #DISTRIBUTION} for that type. */
    public static final String DISTRIBUTIONS = "distributions";

    public static final Set<String> NAMES = Set.of(
            "recordcount",
            "fieldcount",
            "fieldlength",
            "extendfieldlength",
            "maxfieldlength",
            "extendmethod",
            "engine",
            "keyorder",
            "table",
            "scanlength",
            "zipfianconstant",
            "readallfields",
            "writeallfields",
            "fieldlengthdistribution",
            "extendlengthdistribution",
            "rangelengthdistribution",
            KeysSection.NAME,
            Sections.NAME);
    public static final Set<String> PHASE_NAMES = Set.of(DISTRIBUTION, DISTRIBUTIONS, Sections.PHASE_ELEMENT);

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
    /** Java strings and JDBC strings top out near 2^31; the server's limits are run-time outcomes. */
    private static final long LARGEST_FIELD = Integer.MAX_VALUE - 16;

    /** The field names FIELD0 .. FIELD{n-1}, as YCSB's JDBC binding names them. */
    public List<String> fieldNames() {
        List<String> names = new ArrayList<>(fieldCount);
        for (int i = 0; i < fieldCount; i++) {
            names.add("FIELD" + i);
        }
        return Collections.unmodifiableList(names);
    }

    public TableSpec tableSpec() {
        return new TableSpec(table, KEY_COLUMN, fieldNames(), maxFieldLength, engine);
    }

    /** Bytes of field values in one freshly loaded record: exact for constant lengths, expected otherwise. */
    public long initialRecordBytes() {
        return Math.round(fieldCount * fieldLengths.mean());
    }

    public static YcsbIvsParameters from(BenchmarkConfig config) throws ConfigException {
        LeafView p = config.parameterView();
        p.requireKnown(NAMES);
        boolean ordered =
                p.choice("keyorder", "hashed", List.of("hashed", "ordered")).equals("ordered");
        Sections sections = Sections.parse(p, ordered);
        // With sections, the load is each section's records one after another (none is allowed: a section may
        // start empty and insert its keys).
        long recordCount = sections.present()
                ? sections.records()
                : p.longAtLeast("recordcount", Math.round(config.scaleFactor() * 1000), 1);
        int fieldCount = (int) p.longBetween("fieldcount", 10, 1, 1000);
        int fieldLength = p.intAtLeast("fieldlength", 100, 0);
        int extendLength = p.intAtLeast("extendfieldlength", 100, 1);
        long maxLength = p.longBetween("maxfieldlength", 1_600_000, Long.MIN_VALUE, LARGEST_FIELD);
        if (maxLength < fieldLength) {
            throw p.error("maxfieldlength", "'" + maxLength + "' must be at least fieldlength (" + fieldLength + ")");
        }
        ExtendMethod method = extendMethod(p.leaf("extendmethod"), config.terminals());
        TargetKind kind = TargetKinds.of(config.target().type());
        if (method == ExtendMethod.SERVER && !kind.features().has(KindFeatures.Feature.SERVER_EXTEND)) {
            throw p.error(
                    "extendmethod",
                    "'" + p.leaf("extendmethod") + "' is not available for type "
                            + config.target().type() + "; use client");
        }
        String engine = engine(kind, config.target().type(), p);
        String table = p.string("table", "usertable");
        if (!IDENTIFIER.matcher(table).matches()) {
            throw p.error(
                    "table",
                    "'" + table + "' is not a valid table name (letters, digits, '_';"
                            + " not starting with a digit; at most 64 characters)");
        }
        int scanLength = p.intAtLeast("scanlength", 100, 1);
        double zipf = p.decimal("zipfianconstant", 0.99);
        if (zipf != 0.99) {
            throw p.error(
                    "zipfianconstant",
                    "'" + p.leaf("zipfianconstant") + "' is not supported: YCSB's scrambled zipfian is defined for"
                            + " 0.99 only (its zeta over 10^10 items is precomputed for it); give the phase's"
                            + " distribution as zipfian(theta=...) instead");
        }
        int lengthCap = (int) maxLength;
        LengthDistribution fieldLengths = lengths(p, "fieldlengthdistribution", fieldLength, 0, lengthCap);
        LengthDistribution extendLengths = lengths(p, "extendlengthdistribution", extendLength, 1, lengthCap);
        LengthDistribution rangeLengths = rangeLengths(p, scanLength, recordCount);
        return new YcsbIvsParameters(
                recordCount,
                fieldCount,
                fieldLength,
                extendLength,
                maxLength,
                method,
                engine,
                ordered,
                table,
                scanLength,
                p.bool("readallfields", true),
                p.bool("writeallfields", false),
                fieldLengths,
                extendLengths,
                rangeLengths,
                sections.present() ? KeysSection.plain(ordered) : KeysSection.parse(p, ordered, recordCount),
                sections);
    }

    /**
     * Records per range operation: by default uniform over 1..scanlength (as SCAN); a range never asks for more
     * than the table holds at load (or than scanlength, when that is larger), so its rows fit in memory.
     */
    private static LengthDistribution rangeLengths(LeafView p, int scanLength, long recordCount)
            throws ConfigException {
        String name = "rangelengthdistribution";
        String text = p.string(name, "uniform");
        int highest = (int) Math.min(Integer.MAX_VALUE, Math.max(scanLength, recordCount));
        try {
            return LengthDistribution.parse(text, scanLength, 1, scanLength, highest);
        } catch (IllegalArgumentException e) {
            throw p.error(name, "'" + text + "': " + e.getMessage());
        }
    }

    /** The key of a key number, by the configured key shape (YCSB's without a {@code <keys>} section). */
    public String keyName(long keynum) {
        return keys.shape().key(keynum);
    }

    /**
     * extendmethod: {@code client} (the default) is the paper's plain read and replace with one terminal, where no
     * other terminal can interleave, and the locked variant with more, where a plain one could lose appends;
     * {@code client-plain} and {@code client-locked} choose either whatever the terminal count.
     */
    static ExtendMethod extendMethod(String value, int terminals) throws ConfigException {
        return switch (lower(value == null ? "client" : value)) {
            case "client" -> terminals <= 1 ? ExtendMethod.CLIENT_PLAIN : ExtendMethod.CLIENT;
            case "client-plain" -> ExtendMethod.CLIENT_PLAIN;
            case "client-locked" -> ExtendMethod.CLIENT;
            case "server" -> ExtendMethod.SERVER;
            default ->
                throw new ConfigException(
                        "extendmethod",
                        "'" + value + "' must be client (read, append, write back: the paper's semantics; plain with"
                                + " 1 terminal, locked with more), client-plain, client-locked or server (one guarded"
                                + " append statement)");
        };
    }

    /** True when every value length is the configured constant (what the experiment's baselines assume). */
    public boolean constantLengths() {
        return fieldLengths.constant() && extendLengths.constant();
    }

    private static LengthDistribution lengths(LeafView p, String name, int constant, int lowest, int cap)
            throws ConfigException {
        String text = p.string(name, "constant");
        try {
            return LengthDistribution.parse(text, constant, lowest, cap, cap);
        } catch (IllegalArgumentException e) {
            throw p.error(name, "'" + text + "': " + e.getMessage());
        }
    }

    /** The phase's key distribution, validated; the path names the phase element. */
    public static DistributionSpec distribution(PhaseConfig phase) throws ConfigException {
        LeafView p = phase.parameterView();
        return keyDistribution(p.childPath(DISTRIBUTION), p.string(DISTRIBUTION, DEFAULT_DISTRIBUTION));
    }

    /**
     * The key distribution of each transaction type of the phase that has its own ({@code <distributions>}),
     * validated; the others use {@link #distribution(PhaseConfig)}.
     */
    public static Map<String, DistributionSpec> distributions(PhaseConfig phase) throws ConfigException {
        LeafView p = phase.parameterView();
        String whole = p.leaf(DISTRIBUTIONS);
        if (whole != null) {
            throw p.error(
                    DISTRIBUTIONS,
                    "'" + whole + "' must hold one element per transaction type,"
                            + " e.g. <ExtendRecord>zipfian(theta=0.9)</ExtendRecord>");
        }
        LeafView perType = p.section(DISTRIBUTIONS);
        Map<String, DistributionSpec> byType = new TreeMap<>();
        for (String type : perType.names()) {
            if (!Procedures.names().contains(type)) {
                throw perType.error(
                        type,
                        "unknown transaction type '" + type + "'; known: " + String.join(", ", Procedures.names()));
            }
            byType.put(type, keyDistribution(perType.childPath(type), perType.leaf(type)));
        }
        return byType;
    }

    /** A key distribution expression, validated; errors name the path and the value. */
    public static DistributionSpec keyDistribution(String path, String text) throws ConfigException {
        try {
            return KeyDistributions.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(path, "'" + text + "': " + e.getMessage());
        }
    }

    /** Validates every benchmark-specific element of the config, including each phase's. */
    public static YcsbIvsParameters validate(BenchmarkConfig config) throws ConfigException {
        YcsbIvsParameters parameters = from(config);
        parameters.sections().validatePhases(config);
        if (parameters.sections().present()) {
            refuseWithSections(config);
        }
        for (PhaseConfig phase : config.phases()) {
            phase.parameterView().requireKnown(PHASE_NAMES);
            distribution(phase);
            distributions(phase);
            RampedDistribution.of(phase);
        }
        return parameters;
    }

    /** What sections do not combine with yet: experiments, shards. */
    private static void refuseWithSections(BenchmarkConfig config) throws ConfigException {
        if (config.experiment() != null) {
            throw new ConfigException(
                    Sections.NAME, "<sections> do not combine with <experiment> (an experiment builds its own phases)");
        }
        if (config.shard().count() > 1) {
            throw new ConfigException(
                    Sections.NAME,
                    "<sections> do not combine with --shard yet (each driver would hold its own live keys)");
        }
    }

    /** The kind's engine the value names; its default engine when none is given; null when it has no choice. */
    private static String engine(TargetKind kind, String type, LeafView p) throws ConfigException {
        List<String> engines = kind.storageEngines();
        String value = p.leaf("engine");
        if (value == null || value.isBlank()) {
            return engines.isEmpty() ? null : engines.get(0);
        }
        if (engines.isEmpty()) {
            throw p.error(
                    "engine",
                    "'" + value + "' does not apply to type " + type
                            + " (it has no choice of storage engine); remove it");
        }
        return kind.storageEngine(value)
                .orElseThrow(() -> p.error("engine", "'" + value + "' must be " + String.join(" or ", engines)));
    }

    private static String lower(String value) {
        return value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    }
}
