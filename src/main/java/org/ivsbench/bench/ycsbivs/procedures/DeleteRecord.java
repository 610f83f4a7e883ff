package org.ivsbench.bench.ycsbivs.procedures;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * YCSB DELETE: one record by the phase's distribution (a later operation on it is ABORTED "not found"). With
 * sections, a live key of the section, which stops being live when chosen and is gone (for empty operations)
 * once the delete found it absent.
 */
public final class DeleteRecord implements Procedure {
    @Override
    public String name() {
        return "DeleteRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        if (!c.sectioned()) {
            return c.session().delete(c.table(), c.nextKey());
        }
        long number = c.takeForDelete();
        OpResult r = null;
        try {
            r = c.session().delete(c.table(), c.sectionKey(number));
            return r;
        } finally {
            c.deleteDone(number, r);
        }
    }
}
