package org.ivsbench.db.cassandra;

import java.util.List;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import org.junit.jupiter.api.Test;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which driver exceptions are one request's ERROR with a reason, which a lost connection, which a failure. */
class CassandraErrorsTest {
    private static final DefaultConsistencyLevel ONE = DefaultConsistencyLevel.ONE;

    @Test
    void answersAboutOneRequestAreErrorsWithTheirReason() throws TargetException {
        assertEquals("read timeout", reason(new ReadTimeoutException(null, ONE, 0, 1, false)));
        assertEquals("write timeout", reason(new WriteTimeoutException(null, ONE, 0, 1, WriteType.SIMPLE)));
        assertEquals("unavailable", reason(new UnavailableException(null, ONE, 1, 0)));
        assertEquals("client timeout", reason(new DriverTimeoutException("Query timed out after PT2S")));
        assertEquals(
                "mutation too large",
                reason(
                        new InvalidQueryException(
                                null,
                                "Rejected an oversized mutation (17825902/16777216) for keyspace: ivsbench. Top keys are: t.big")));
        assertEquals(
                "message too large",
                reason(new InvalidQueryException(
                        null, "CQL Message of size 17825859 bytes exceeds allowed maximum of 13421772 bytes")));
    }

    @Test
    void anUnreachableNodeIsALostConnection() {
        assertTrue(
                CassandraErrors.failure("read", new NoNodeAvailableException()).connectionLost());
        assertTrue(CassandraErrors.failure("read", new ClosedConnectionException("Unexpected error on channel"))
                .connectionLost());
        assertTrue(CassandraErrors.failure("read", AllNodesFailedException.fromErrors(List.of()))
                .connectionLost());
    }

    @Test
    void otherRefusalsAreFailuresButNotLostConnections() {
        SyntaxError syntax = new SyntaxError(null, "line 1:0 no viable alternative");
        assertTrue(CassandraErrors.outcome(syntax).isEmpty());
        assertFalse(CassandraErrors.failure("read", syntax).connectionLost());
        assertTrue(CassandraErrors.outcome(new InvalidQueryException(null, "Undefined column name x"))
                .isEmpty());
    }

    private static String reason(RuntimeException e) throws TargetException {
        OpResult r = CassandraErrors.outcomeOrThrow("read", e);
        assertEquals(Outcome.ERROR, r.outcome());
        return r.reason();
    }
}
