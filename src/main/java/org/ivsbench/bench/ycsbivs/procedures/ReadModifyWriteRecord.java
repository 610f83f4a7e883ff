package org.ivsbench.bench.ycsbivs.procedures;

import java.util.HashMap;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * YCSB READMODIFYWRITE: reads the record (fields as for READ), then updates one field (all with
 * writeallfields) of the same key. Two statements without a transaction, as in YCSB. Its size (latency by size)
 * is the bytes the read returned, as for READ.
 */
public final class ReadModifyWriteRecord implements Procedure {
    @Override
    public String name() {
        return "ReadModifyWriteRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        String key = c.nextKey();
        OpResult read = c.session().read(c.table(), key, c.readFields(), new HashMap<>());
        if (!read.isOk()) {
            return read;
        }
        OpResult write = c.session().update(c.table(), key, c.values(c.writeFields()));
        return new OpResult(
                write.outcome(),
                write.reason(),
                read.bytesRead() + write.bytesRead(),
                write.bytesWritten(),
                write.isOk() ? read.bytesRead() : OpResult.UNKNOWN_SIZE);
    }
}
