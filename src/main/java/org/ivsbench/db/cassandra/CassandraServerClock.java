package org.ivsbench.db.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;

import org.ivsbench.db.ServerClock;
import org.ivsbench.db.TargetException;

/**
 * The coordinator's clock: {@code toUnixTimestamp(now())}, the time of a time-based UUID made on the node that
 * answers, in epoch milliseconds. Read over the target's own driver session (no connection of its own).
 */
final class CassandraServerClock implements ServerClock {
    static final String CQL = "SELECT toUnixTimestamp(now()) FROM system.local";

    private final CqlSession session;

    CassandraServerClock(CqlSession session) {
        this.session = session;
    }

    @Override
    public String source() {
        return CQL;
    }

    @Override
    public long resolutionMicros() {
        return 1000;
    }

    @Override
    public Reader open() throws TargetException {
        PreparedStatement ps;
        try {
            ps = session.prepare(CQL);
        } catch (RuntimeException e) {
            throw CassandraErrors.failure("read the server's clock", e);
        }
        return new Reader() {
            @Override
            public long nowMicros() throws TargetException {
                try {
                    Row row = session.execute(ps.bind()).one();
                    if (row == null) {
                        throw new TargetException("read the server's clock: " + CQL + " returned no row");
                    }
                    return row.getLong(0) * 1000;
                } catch (RuntimeException e) {
                    throw CassandraErrors.failure("read the server's clock", e);
                }
            }

            @Override
            public void close() {
                // The session is the target's.
            }
        };
    }
}
