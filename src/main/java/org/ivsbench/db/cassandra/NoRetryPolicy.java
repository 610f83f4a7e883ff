package org.ivsbench.db.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.context.DriverContext;
import com.datastax.oss.driver.api.core.retry.RetryDecision;
import com.datastax.oss.driver.api.core.retry.RetryPolicy;
import com.datastax.oss.driver.api.core.servererrors.CoordinatorException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import com.datastax.oss.driver.api.core.session.Request;

/**
 * Never retries: every timeout, unavailable answer, aborted request or error response goes back to the benchmark
 * as it happened. The driver's default policy retries a read timeout once and an unavailable answer on another
 * node, which would hide a failure inside a slower success and count one operation where the server saw two.
 * Loaded by the driver by class name (advanced.retry-policy.class), hence the public constructor it expects.
 */
public final class NoRetryPolicy implements RetryPolicy {

    public NoRetryPolicy(DriverContext context, String profileName) {
        // Nothing to configure.
    }

    @Override
    @Deprecated
    public RetryDecision onReadTimeout(
            Request request, ConsistencyLevel cl, int blockFor, int received, boolean dataPresent, int retryCount) {
        return RetryDecision.RETHROW;
    }

    @Override
    @Deprecated
    public RetryDecision onWriteTimeout(
            Request request, ConsistencyLevel cl, WriteType writeType, int blockFor, int received, int retryCount) {
        return RetryDecision.RETHROW;
    }

    @Override
    @Deprecated
    public RetryDecision onUnavailable(Request request, ConsistencyLevel cl, int required, int alive, int retryCount) {
        return RetryDecision.RETHROW;
    }

    @Override
    @Deprecated
    public RetryDecision onRequestAborted(Request request, Throwable error, int retryCount) {
        return RetryDecision.RETHROW;
    }

    @Override
    @Deprecated
    public RetryDecision onErrorResponse(Request request, CoordinatorException error, int retryCount) {
        return RetryDecision.RETHROW;
    }

    @Override
    public void close() {}
}
