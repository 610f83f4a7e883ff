package org.ivsbench.bench.ycsbivs.procedures;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * A range read: from a key by the operation's distribution, the next records in key order, as many as
 * rangelengthdistribution draws (its selectivity is that number over the table's records). Fewer rows near
 * the end of the key space are still OK; the rows returned are summed in {@link RangeRows}.
 */
public final class RangeReadRecord implements Procedure {
    @Override
    public String name() {
        return "RangeReadRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        String start = c.nextKey();
        int count = c.rangeLength();
        List<Map<String, String>> rows = new ArrayList<>();
        OpResult r = c.session().scan(c.table(), start, count, c.readFields(), rows);
        if (r.isOk()) {
            c.rangeRows().read(rows.size());
        }
        return r;
    }
}
