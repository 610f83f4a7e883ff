package org.ivsbench.bench.ycsbivs.procedures;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/** YCSB DELETE: one record by the phase's distribution (a later operation on it is ABORTED "not found"). */
public final class DeleteRecord implements Procedure {
    @Override
    public String name() {
        return "DeleteRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        return c.session().delete(c.table(), c.nextKey());
    }
}
