package org.ivsbench.db.cassandra;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.NodeUnavailableException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.ConnectionInitException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteFailureException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * How driver exceptions become outcomes and TargetExceptions. What the cluster answers about one request (a
 * replica timed out, too few replicas alive, the node is overloaded, the mutation is too large) is that
 * operation's ERROR with a short reason; a node that cannot be reached at all is a lost connection.
 */
final class CassandraErrors {
    static final String READ_TIMEOUT = "read timeout";
    static final String WRITE_TIMEOUT = "write timeout";
    static final String UNAVAILABLE = "unavailable";
    static final String TOO_LARGE = "mutation too large";
    static final String MESSAGE_TOO_LARGE = "message too large";

    private CassandraErrors() {}

    /** The ERROR outcome for an answer about this one request, or empty when it is a failure to throw. */
    static Optional<OpResult> outcome(RuntimeException e) {
        String reason = null;
        if (e instanceof ReadTimeoutException) {
            reason = READ_TIMEOUT;
        } else if (e instanceof WriteTimeoutException) {
            reason = WRITE_TIMEOUT;
        } else if (e instanceof UnavailableException) {
            reason = UNAVAILABLE;
        } else if (e instanceof ReadFailureException) {
            reason = "read failure";
        } else if (e instanceof WriteFailureException) {
            reason = "write failure";
        } else if (e instanceof OverloadedException) {
            reason = "overloaded";
        } else if (e instanceof DriverTimeoutException) {
            reason = "client timeout";
        } else if (e instanceof InvalidQueryException && isTooLarge(e)) {
            reason = TOO_LARGE;
        } else if (e instanceof InvalidQueryException && isMessageTooLarge(e)) {
            reason = MESSAGE_TOO_LARGE;
        }
        return Optional.ofNullable(reason).map(OpResult::error);
    }

    /** A failure of the statement or of the connection; connectionLost when no node could be reached. */
    static TargetException failure(String what, RuntimeException e) {
        return new TargetException("Cassandra " + what + " failed: " + e.getMessage(), e, isConnectionLost(e));
    }

    /** Either the ERROR outcome of {@link #outcome} or the failure thrown. */
    static OpResult outcomeOrThrow(String what, RuntimeException e) throws TargetException {
        Optional<OpResult> result = outcome(e);
        if (result.isPresent()) {
            return result.get();
        }
        throw failure(what, e);
    }

    static boolean isConnectionLost(RuntimeException e) {
        if (e instanceof NoNodeAvailableException
                || e instanceof ClosedConnectionException
                || e instanceof HeartbeatException) {
            return true;
        }
        if (e instanceof AllNodesFailedException all) {
            // Every node tried failed: lost when each failure was about reaching the node, not about the request.
            for (List<Throwable> errors : all.getAllErrors().values()) {
                for (Throwable t : errors) {
                    if (!(t instanceof ClosedConnectionException
                            || t instanceof HeartbeatException
                            || t instanceof ConnectionInitException
                            || t instanceof NodeUnavailableException
                            || t instanceof IOException)) {
                        return false;
                    }
                }
            }
            return true;
        }
        return false;
    }

    /**
     * The request itself passes the server's native_transport_max_message_size ("CQL Message of size n bytes
     * exceeds allowed maximum of m bytes"), a limit that is reached before the mutation limit by default.
     */
    private static boolean isMessageTooLarge(RuntimeException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return m.contains("cql message of size") && m.contains("exceeds allowed maximum");
    }

    private static boolean isTooLarge(RuntimeException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        // "Rejected an oversized mutation (n/max) for keyspace ..." (Cassandra 4.0+); older servers said
        // "Mutation of n bytes is too large for the maximum size of max".
        return m.contains("oversized mutation") || m.contains("mutation of") && m.contains("too large");
    }
}
