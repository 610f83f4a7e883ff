package org.ivsbench.bench.ycsbivs.procedures;

import java.util.HashMap;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/** YCSB READ: one record by the phase's distribution; all fields unless readallfields=false. */
public final class ReadRecord implements Procedure {
    @Override
    public String name() {
        return "ReadRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        String key = c.nextKey();
        return c.session().read(c.table(), key, c.readFields(), new HashMap<>());
    }
}
