package org.ivsbench.bench.ycsbivs.procedures;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * YCSB INSERT: a new record under the next key of the run's shared counter, every field of fieldlength (or of
 * a length by fieldlengthdistribution). The key is acknowledged when the insert has finished, so reads by
 * "latest" only pick keys whose insert is done. With sections the key is the section's next fresh number, live once
 * the insert succeeded. Its size (latency by size) is the new record's: the bytes written.
 */
public final class InsertRecord implements Procedure {
    @Override
    public String name() {
        return "InsertRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        long number = c.nextInsertNumber();
        OpResult r = null;
        try {
            r = c.session().insert(c.table(), c.insertKey(number), c.values(c.allFields()));
            return r.isOk() ? r.withSize(r.bytesWritten()) : r;
        } finally {
            // also after a failure, as YCSB does: a failed insert must not stall "latest" (it is not live, though)
            c.insertDone(number, r != null && r.isOk());
        }
    }
}
