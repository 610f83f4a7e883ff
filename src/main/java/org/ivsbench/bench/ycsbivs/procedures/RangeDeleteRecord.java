package org.ivsbench.bench.ycsbivs.procedures;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * A range delete: from a key by the operation's distribution, the next records in key order, as many as
 * rangelengthdistribution draws, in one request to the server. An empty range is ABORTED "not found", as a
 * point delete of a missing key; the records deleted are summed in {@link RangeRows}. Only for kinds that
 * can delete a key range (checked when the config is read).
 */
public final class RangeDeleteRecord implements Procedure {
    @Override
    public String name() {
        return "RangeDeleteRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        String start = c.nextKey();
        int count = c.rangeLength();
        RangeRows tally = c.rangeRows();
        return c.session().deleteRange(c.table(), start, count, tally::deleted);
    }
}
