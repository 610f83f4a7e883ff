package org.ivsbench.bench.ycsb;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.LeafView;
import org.ivsbench.db.TableSpec;

/**
 * BenchBase's YCSB settings: {@code scalefactor} x 1000 rows, {@code fieldSize} characters per field (at most 100,
 * the width of BenchBase's {@code varchar(100)} columns; larger values are clamped as BenchBase clamps them) and
 * {@code skewFactor}, the Zipfian constant of the key chooser (default 0.99). The table is BenchBase's:
 * {@code usertable (ycsb_key int PRIMARY KEY, field1 .. field10 varchar(100))}.
 */
public record YcsbParameters(long recordCount, int fieldSize, double skewFactor, boolean fieldSizeClamped) {
    public static final String TABLE = "usertable";
    public static final String KEY_COLUMN = "ycsb_key";
    public static final int FIELD_COUNT = 10;
    public static final int MAX_FIELD_SIZE = 100;
    /** BenchBase draws a scan's length from a Zipfian over 1 .. 1000 (its MAX_SCAN). */
    public static final int MAX_SCAN = 1000;

    public static final double DEFAULT_SKEW = 0.99;
    public static final Set<String> NAMES = Set.of("fieldSize", "skewFactor");
    private static final List<String> FIELDS = fields();

    private static List<String> fields() {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= FIELD_COUNT; i++) {
            names.add("field" + i);
        }
        return Collections.unmodifiableList(names);
    }

    public List<String> fieldNames() {
        return FIELDS;
    }

    public TableSpec tableSpec() {
        return new TableSpec(TABLE, KEY_COLUMN, FIELDS, MAX_FIELD_SIZE, null, TableSpec.KeyType.INTEGER, true);
    }

    public static YcsbParameters from(BenchmarkConfig config) throws ConfigException {
        long records = Math.round(config.scaleFactor() * 1000);
        if (records < 1) {
            throw new ConfigException(
                    "scalefactor",
                    "'" + config.scaleFactor() + "' gives no rows (ycsb loads" + " scalefactor x 1000 rows)");
        }
        if (records > Integer.MAX_VALUE) {
            throw new ConfigException(
                    "scalefactor",
                    "'" + config.scaleFactor() + "' gives more rows than an int" + " ycsb_key can number");
        }
        LeafView p = config.parameterView();
        int fieldSize = p.intAtLeast("fieldSize", MAX_FIELD_SIZE, 1);
        boolean clamped = fieldSize > MAX_FIELD_SIZE;
        double skew = p.decimal("skewFactor", DEFAULT_SKEW);
        if (!(skew > 0 && skew < 1)) {
            throw p.error(
                    "skewFactor",
                    "'" + p.leaf("skewFactor") + "' must be > 0 and < 1 (the Zipfian constant of the key chooser)");
        }
        return new YcsbParameters(records, Math.min(fieldSize, MAX_FIELD_SIZE), skew, clamped);
    }
}
