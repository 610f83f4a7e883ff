package org.ivsbench.bench.ycsbivs.procedures;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * A range read by its two ends, KVBench's form of a range query: a start key by the operation's distribution
 * and the end key n - 1 places after it, n by rangelengthdistribution ({@link ProcedureContext#keyRange}); the
 * server is asked for every record between the two keys, with no count. With nothing inserted or deleted inside
 * the range meanwhile it holds n records (fewer at the end of the key space). Only for kinds that keep records in
 * key order and keys whose string order is their number order (the config check); the rows returned are summed
 * in {@link RangeRows}.
 */
public final class RangeReadByKeysRecord implements Procedure {
    @Override
    public String name() {
        return "RangeReadByKeysRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        String[] range = c.keyRange();
        List<Map<String, String>> rows = new ArrayList<>();
        OpResult r = c.session().scanBetween(c.table(), range[0], range[1], c.readFields(), rows);
        if (r.isOk()) {
            c.rangeRows().readByKeys(rows.size());
        }
        return r;
    }
}
