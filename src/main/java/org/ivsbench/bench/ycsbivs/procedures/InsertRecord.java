package org.ivsbench.bench.ycsbivs.procedures;

import org.ivsbench.target.OpResult;
import org.ivsbench.target.TargetException;

/** YCSB INSERT: a new record under the next key of the run's shared counter, every field of fieldlength. */
public final class InsertRecord implements Procedure {
    @Override
    public String name() {
        return "InsertRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        String key = c.nextInsertKey();
        return c.session().insert(c.table(), key, c.values(c.allFields()));
    }
}
