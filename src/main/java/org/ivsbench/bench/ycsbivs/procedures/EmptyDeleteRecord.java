package org.ivsbench.bench.ycsbivs.procedures;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * An empty point delete: a key known to be absent ({@link ProcedureContext#absentKey()}). Nothing to delete
 * is the expected result and counts as OK. A database that reports what a delete removed (SQL, MongoDB) says
 * "not found"; one that deletes blindly (Cassandra writes a tombstone whether or not the key exists) says OK:
 * both are OK here, so an empty delete is never counted as a failure for doing what it should.
 */
public final class EmptyDeleteRecord implements Procedure {
    @Override
    public String name() {
        return "EmptyDeleteRecord";
    }

    @Override
    public OpResult run(ProcedureContext c) throws TargetException {
        OpResult r = c.session().delete(c.table(), c.absentKey());
        return ProcedureContext.notFound(r) ? OpResult.ok() : r;
    }
}
