package org.ivsbench.bench.ycsbivs.procedures;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * A range delete: from a key by the operation's distribution, the next records in key order, as many as
 * rangelengthdistribution draws, in one request to the server. An empty range is ABORTED "not found", as a
 * point delete of a missing key; the records deleted are summed in {@link RangeRows}. Only for kinds that
 * can delete a key range (checked when the config is read).
 *
 * <p>With sections, the range is the section's: a live start key and the live keys after it, taken from the live
 * set before the request ({@link ProcedureContext#takeRangeForDelete}), and the server deletes the records between
 * the first and the last of them by their two keys ({@code Session.deleteBetween}), so that it removes exactly the
 * keys the live set gives up - not another section's keys, nor gone ones - and they are gone once it ends.
 */
public final class RangeDeleteRecord implements Procedure {
    @Override
    public String name() {
        return "RangeDeleteRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        RangeRows tally = c.rangeRows();
        if (!c.sectioned()) {
            String start = c.nextKey();
            int count = c.rangeLength();
            return c.session().deleteRange(c.table(), start, count, tally::deleted);
        }
        long[] taken = c.takeRangeForDelete();
        OpResult r = null;
        try {
            r = c.session()
                    .deleteBetween(
                            c.table(), c.sectionKey(taken[0]), c.sectionKey(taken[taken.length - 1]), tally::deleted);
            return r;
        } finally {
            c.rangeDeleteDone(taken, r);
        }
    }
}
