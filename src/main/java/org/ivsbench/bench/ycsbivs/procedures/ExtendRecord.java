package org.ivsbench.bench.ycsbivs.procedures;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;

/**
 * YCSB-IVS EXTEND: appends random bytes (extendfieldlength, or a length by extendlengthdistribution) to one
 * field (all fields with writeallfields) unless the field would pass maxfieldlength; then nothing is written
 * and the outcome is SKIPPED.
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

    /** Several fields: bytes add up; the worst outcome wins, except that OK beats SKIPPED (something grew). */
    private static OpResult combine(OpResult a, OpResult b) {
        OpResult worse = rank(b.outcome()) > rank(a.outcome()) ? b : a;
        return new OpResult(
                worse.outcome(), worse.reason(), a.bytesRead() + b.bytesRead(), a.bytesWritten() + b.bytesWritten());
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
