package org.ivsbench.bench.ycsbivs.procedures;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * YCSB UPDATE: replaces one field (all with writeallfields) with a fresh value (fieldlength, or a length by
 * fieldlengthdistribution). Its size (latency by size) is the bytes of the values written.
 */
public final class UpdateRecord implements Procedure {
    @Override
    public String name() {
        return "UpdateRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        String key = c.nextKey();
        OpResult r = c.session().update(c.table(), key, c.values(c.writeFields()));
        return r.isOk() ? r.withSize(r.bytesWritten()) : r;
    }
}
