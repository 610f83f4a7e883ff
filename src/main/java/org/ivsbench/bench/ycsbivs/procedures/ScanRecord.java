package org.ivsbench.bench.ycsbivs.procedures;

import java.util.ArrayList;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/** YCSB SCAN: from a key by the phase's distribution, a uniform 1..scanlength records in key order. */
public final class ScanRecord implements Procedure {
    @Override
    public String name() {
        return "ScanRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        String start = c.nextKey();
        int count = c.scanLength();
        return c.session().scan(c.table(), start, count, c.readFields(), new ArrayList<>());
    }
}
