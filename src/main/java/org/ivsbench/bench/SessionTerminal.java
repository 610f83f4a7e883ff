package org.ivsbench.bench;

import java.util.List;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.ReconnectingSession;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * The terminal every benchmark extends: it owns the terminal's one session, turns database failures into outcomes
 * and recovers from a lost connection. A benchmark writes its operations ({@link #run}) and what a phase sets up
 * ({@link #startPhase}), nothing else.
 *
 * <p>Failures: a {@link TargetException} from {@link #run} becomes ERROR {@value ReconnectingSession#CONNECTION_LOST}
 * when it says the connection was lost, else ERROR {@value #DATABASE_ERROR}. The driver's message (which may hold a
 * key) goes to the log, the first {@value #LOGGED_FAILURES} times per terminal.
 *
 * <p>After a lost connection (one behaviour for every benchmark): the operation that found it is reported at once,
 * with the latency it really had, and is never retried. Then
 * <ul>
 *   <li>with {@code reconnectOnConnectionFailure} the session is a {@link ReconnectingSession}: {@link
 *       #beforeOperation} waits for it to reconnect (backoff until a deadline), outside any operation's service
 *       time; if it gives up, the next operation fails as connection lost and the one after waits again;
 *   <li>without it the broken session is closed and {@link #beforeOperation} of the next operation makes one attempt
 *       to open a new one, also outside the service time. If that attempt fails, the operation fails as connection
 *       lost without reaching the database and the next one tries again: a short outage does not silence the
 *       terminal for the rest of the run, and while the server is away the terminal fails fast rather than waits.
 * </ul>
 * The engine calls {@link #beforeOperation} before every {@link #execute}; a caller that skips it gets no reopen.
 */
public abstract class SessionTerminal implements Terminal {
    /** The outcome reason of every failure that is not a lost connection. */
    public static final String DATABASE_ERROR = "database error";

    static final int LOGGED_FAILURES = 5;

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final int id;
    private final Target target;
    private final List<String> typeNames;
    private Session session;
    private int loggedFailures;

    /**
     * Opens the terminal's session, reconnecting when the config asks for it; {@code typeNames} are the config's
     * transaction types (in the log of a failure).
     */
    protected SessionTerminal(BenchmarkConfig config, Target target, int id) throws TargetException {
        this.id = id;
        this.target = target;
        this.typeNames = List.copyOf(config.transactionTypeNames());
        this.session = ReconnectingSession.open(target, config.target().reconnectOnConnectionFailure());
    }

    /**
     * Runs one operation of the transaction type at this index of the config's types on {@code session}. Database
     * trouble is thrown, not returned: the skeleton makes it an outcome.
     */
    protected abstract OpResult run(int transactionTypeIndex, Session session) throws TargetException;

    /** Called once when the terminal closes, after its session: a benchmark's own end of terminal. */
    protected void closed() {}

    /** The terminal's session now; null between a lost connection and the reopen (plain sessions only). */
    protected final Session session() {
        return session;
    }

    @Override
    public final boolean beforeOperation(BooleanSupplier stillWanted) {
        if (session instanceof ReconnectingSession reconnecting && reconnecting.disconnected()) {
            try {
                return reconnecting.awaitConnection(stillWanted);
            } catch (TargetException e) {
                logFailure("reconnect", e); // gave up for now: the operation fails as connection lost
            }
        } else if (session == null) {
            try {
                session = target.openSession();
            } catch (TargetException e) {
                logFailure("reconnect", e); // the operation fails as connection lost; the next one tries again
            }
        }
        return true;
    }

    @Override
    public final OpResult execute(int transactionTypeIndex) {
        if (session == null) {
            return OpResult.error(ReconnectingSession.CONNECTION_LOST); // the reopen before it failed
        }
        try {
            return run(transactionTypeIndex, session);
        } catch (TargetException e) {
            logFailure(typeNames.get(transactionTypeIndex), e);
            if (!e.connectionLost()) {
                return OpResult.error(DATABASE_ERROR);
            }
            // A reconnecting session recovers by itself; replacing it with a plain one would silently turn
            // reconnection off for the rest of the run.
            if (!(session instanceof ReconnectingSession)) {
                Session broken = session;
                session = null;
                broken.close();
            }
            return OpResult.error(ReconnectingSession.CONNECTION_LOST);
        }
    }

    private void logFailure(String what, TargetException e) {
        if (loggedFailures < LOGGED_FAILURES) {
            loggedFailures++;
            log.warn(
                    "terminal {}: {} failed: {}{}",
                    id,
                    what,
                    e.getMessage(),
                    loggedFailures == LOGGED_FAILURES ? " (further failures not logged)" : "");
        }
    }

    @Override
    public final void close() {
        if (session != null) {
            session.close();
            session = null;
        }
        closed();
    }
}
