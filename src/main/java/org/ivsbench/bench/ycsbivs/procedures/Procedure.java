package org.ivsbench.bench.ycsbivs.procedures;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/** One ycsbivs transaction type: draws what it needs from the terminal's context and runs it. */
public interface Procedure {
    String name();

    OpResult run(ProcedureContext context) throws TargetException;
}
