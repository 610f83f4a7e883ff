package org.ivsbench.bench.ycsbivs.procedures;

import java.util.HashMap;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;

/**
 * An empty point read: a key known to be absent ({@link ProcedureContext#absentKey()}). Not finding it is the
 * expected result and counts as OK (no bytes read); finding it is ABORTED "present" (something outside the
 * benchmark wrote into its key space). Other outcomes are the read's own.
 */
public final class EmptyReadRecord implements Procedure {
    static final String PRESENT = "present";

    @Override
    public String name() {
        return "EmptyReadRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        OpResult r = c.session().read(c.table(), c.absentKey(), c.readFields(), new HashMap<>());
        if (ProcedureContext.notFound(r)) {
            return OpResult.ok();
        }
        return r.outcome() == Outcome.OK ? new OpResult(Outcome.ABORTED, PRESENT, r.bytesRead(), 0) : r;
    }
}
