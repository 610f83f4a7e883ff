package org.ivsbench.bench.ycsbivs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.random.Distributions;
import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;

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
        boolean writeAllFields) {

    public static final String KEY_COLUMN = "YCSB_KEY";
    public static final String DEFAULT_DISTRIBUTION = "zipfian";
    /** Per-phase element. The paper's read phases set it to uniform; YCSB's core default is zipfian. */
    public static final String DISTRIBUTION = "distribution";
    public static final Set<String> NAMES = Set.of("recordcount", "fieldcount", "fieldlength", "extendfieldlength",
            "maxfieldlength", "extendmethod", "engine", "keyorder", "table", "scanlength", "zipfianconstant",
            "readallfields", "writeallfields", "fieldlengthdistribution");
    public static final Set<String> PHASE_NAMES = Set.of(DISTRIBUTION);

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

    /** Bytes of field values in one freshly loaded record. */
    public long initialRecordBytes() {
        return (long) fieldCount * fieldLength;
    }

    public static YcsbIvsParameters from(BenchmarkConfig config) throws ConfigException {
        Map<String, String> p = config.parameters();
        for (String name : p.keySet()) {
            if (!NAMES.contains(name)) {
                throw new ConfigException(name, "unknown ycsbivs parameter; known: " + String.join(", ",
                        NAMES.stream().sorted().toList()));
            }
        }
        long defaultRecords = Math.round(config.scaleFactor() * 1000);
        long recordCount = longAtLeast(p, "recordcount", defaultRecords, 1, "1");
        int fieldCount = (int) longAtLeast(p, "fieldcount", 10, 1, "1");
        if (fieldCount > 1000) {
            throw new ConfigException("fieldcount", "'" + fieldCount + "' must be <= 1000");
        }
        int fieldLength = (int) longAtLeast(p, "fieldlength", 100, 0, "0");
        int extendLength = (int) longAtLeast(p, "extendfieldlength", 100, 1, "1");
        long maxLength = longAtLeast(p, "maxfieldlength", 1_600_000, fieldLength, "fieldlength (" + fieldLength + ")");
        if (maxLength > LARGEST_FIELD) {
            throw new ConfigException("maxfieldlength", "'" + maxLength + "' must be <= " + LARGEST_FIELD);
        }
        ExtendMethod method = switch (lower(p.getOrDefault("extendmethod", "client"))) {
            case "client" -> ExtendMethod.CLIENT;
            case "server" -> ExtendMethod.SERVER;
            default -> throw new ConfigException("extendmethod", "'" + p.get("extendmethod")
                    + "' must be client (read, append, write back: the paper's semantics) or server (one guarded"
                    + " append statement)");
        };
        TargetKind kind = TargetKinds.of(config.target().type());
        if (method == ExtendMethod.SERVER && !kind.serverSideExtend()) {
            throw new ConfigException("extendmethod", "'" + p.get("extendmethod") + "' is not available for type "
                    + config.target().type() + "; use client");
        }
        String engine = engine(kind, config.target().type(), p.get("engine"));
        boolean ordered = switch (lower(p.getOrDefault("keyorder", "hashed"))) {
            case "hashed" -> false;
            case "ordered" -> true;
            default -> throw new ConfigException("keyorder", "'" + p.get("keyorder") + "' must be hashed or ordered");
        };
        String table = p.getOrDefault("table", "usertable");
        if (!IDENTIFIER.matcher(table).matches()) {
            throw new ConfigException("table", "'" + table + "' is not a valid table name (letters, digits, '_';"
                    + " not starting with a digit; at most 64 characters)");
        }
        int scanLength = (int) longAtLeast(p, "scanlength", 100, 1, "1");
        String zipf = p.getOrDefault("zipfianconstant", "0.99");
        try {
            if (Double.parseDouble(zipf.trim()) != 0.99) {
                throw new ConfigException("zipfianconstant", "'" + zipf + "' is not supported: YCSB's scrambled"
                        + " zipfian is defined for 0.99 only (its zeta over 10^10 items is precomputed for it)");
            }
        } catch (NumberFormatException e) {
            throw new ConfigException("zipfianconstant", "'" + zipf + "' is not a number");
        }
        String lengths = p.getOrDefault("fieldlengthdistribution", "constant");
        if (!lower(lengths).equals("constant")) {
            throw new ConfigException("fieldlengthdistribution", "'" + lengths + "' is not supported: only constant");
        }
        return new YcsbIvsParameters(recordCount, fieldCount, fieldLength, extendLength, maxLength, method, engine,
                ordered, table, scanLength, bool(p, "readallfields", true), bool(p, "writeallfields", false));
    }

    /** The phase's key distribution name, validated; the path names the phase element. */
    public static String distribution(PhaseConfig phase) throws ConfigException {
        String value = phase.parameters().getOrDefault(DISTRIBUTION, DEFAULT_DISTRIBUTION);
        String name = lower(value);
        if (!Distributions.names().contains(name)) {
            throw new ConfigException(phasePath(phase) + "/" + DISTRIBUTION, "'" + value + "' is not one of "
                    + String.join(", ", Distributions.names()));
        }
        return name;
    }

    /** Validates every benchmark-specific element of the config, including each phase's. */
    public static YcsbIvsParameters validate(BenchmarkConfig config) throws ConfigException {
        YcsbIvsParameters parameters = from(config);
        for (PhaseConfig phase : config.phases()) {
            for (String name : phase.parameters().keySet()) {
                if (!PHASE_NAMES.contains(name)) {
                    throw new ConfigException(phasePath(phase) + "/" + name, "unknown ycsbivs phase parameter;"
                            + " known: " + String.join(", ", PHASE_NAMES));
                }
            }
            distribution(phase);
        }
        return parameters;
    }

    /** PhaseConfig.index is taken as 0-based; paths are XPath-style, 1-based. */
    private static String phasePath(PhaseConfig phase) {
        return "works/work[" + (phase.index() + 1) + "]";
    }

    /** The kind's engine the value names; its default engine when none is given; null when it has no choice. */
    private static String engine(TargetKind kind, String type, String value) throws ConfigException {
        List<String> engines = kind.storageEngines();
        if (value == null || value.isBlank()) {
            return engines.isEmpty() ? null : engines.get(0);
        }
        if (engines.isEmpty()) {
            throw new ConfigException("engine", "'" + value + "' does not apply to type " + type
                    + " (it has no choice of storage engine); remove it");
        }
        return kind.storageEngine(value).orElseThrow(() -> new ConfigException("engine", "'" + value
                + "' must be " + String.join(" or ", engines)));
    }

    private static long longAtLeast(Map<String, String> p, String name, long fallback, long min, String minText)
            throws ConfigException {
        String value = p.get(name);
        long parsed;
        if (value == null) {
            parsed = fallback;
        } else {
            try {
                parsed = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(name, "'" + value + "' is not a whole number");
            }
        }
        if (parsed < min) {
            throw new ConfigException(name, "'" + (value == null ? fallback : value) + "' must be >= " + minText);
        }
        if (parsed > Integer.MAX_VALUE && !name.equals("recordcount") && !name.equals("maxfieldlength")) {
            throw new ConfigException(name, "'" + value + "' is too large");
        }
        return parsed;
    }

    private static boolean bool(Map<String, String> p, String name, boolean fallback) throws ConfigException {
        String value = p.get(name);
        if (value == null) {
            return fallback;
        }
        return switch (lower(value)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ConfigException(name, "'" + value + "' must be true or false");
        };
    }

    private static String lower(String value) {
        return value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    }
}
