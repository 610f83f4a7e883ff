package org.ivsbench.bench.ycsbivs.procedures;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;

/**
 * YCSB-IVS EXTEND: appends random bytes (extendfieldlength, or a length by extendlengthdistribution) to one
 * field (all fields with writeallfields) unless the field would pass maxfieldlength; then nothing is written
 * and the outcome is SKIPPED. Its size (latency by size) is the session's: the field's length after the extend
 * (as it stayed, when capped), the fields' summed with writeallfields; unknown for the SERVER method.
 */
public final class ExtendRecord implements Procedure {
    @Override
    public String name() {
        return "ExtendRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        String key = c.nextKey();
        OpResult total = null;
        for (String field : c.writeFields()) {
            String suffix = c.value(c.extendLength());
            OpResult r = c.session()
                    .extend(
                            c.table(),
                            key,
                            field,
                            suffix,
                            c.parameters().maxFieldLength(),
                            c.parameters().extendMethod());
            total = total == null ? r : combine(total, r);
        }
        return total;
    }

    /**
     * Several fields: bytes add up; the worst outcome wins, except that OK beats SKIPPED (something grew); the size
     * is the sum of the fields' when every one is known.
     */
    private static OpResult combine(OpResult a, OpResult b) {
        OpResult worse = rank(b.outcome()) > rank(a.outcome()) ? b : a;
        boolean sized = a.sizeBytes() >= 0 && b.sizeBytes() >= 0;
        return new OpResult(
                worse.outcome(),
                worse.reason(),
                a.bytesRead() + b.bytesRead(),
                a.bytesWritten() + b.bytesWritten(),
                sized ? a.sizeBytes() + b.sizeBytes() : OpResult.UNKNOWN_SIZE);
    }

    private static int rank(Outcome outcome) {
        return switch (outcome) {
            case SKIPPED -> 0;
            case OK -> 1;
            case ABORTED -> 2;
            case ERROR -> 3;
        };
    }
}
