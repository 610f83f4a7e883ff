package org.ivsbench.bench.ycsbivs.procedures;

import java.util.HashMap;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * YCSB READ: one record by the phase's distribution; all fields unless readallfields=false. Its size (latency by
 * size) is the bytes of the values returned: the record's size when it reads all fields.
 */
public final class ReadRecord implements Procedure {
    @Override
    public String name() {
        return "ReadRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        String key = c.nextKey();
        OpResult r = c.session().read(c.table(), key, c.readFields(), new HashMap<>());
        return r.isOk() ? r.withSize(r.bytesRead()) : r;
    }
}
