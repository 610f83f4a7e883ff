package org.ivsbench.bench;

import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

import org.ivsbench.config.PhaseConfig;
import org.ivsbench.op.OpResult;

/**
 * One benchmark terminal: owns one session, draws from the random stream of the phase it is in, and executes
 * transactions by type.
 * Used by exactly one engine thread. Never throws for database trouble: that is an outcome. An unchecked
 * exception from {@link #execute} is a bug (the benchmark's or a driver's): the engine records it as an error
 * with reason {@code "internal error: <exception class>"} and the terminal carries on.
 */
public interface Terminal extends AutoCloseable {

    /**
     * Called before the terminal's first operation of a phase (per-phase key distribution etc.). Every random
     * choice of the phase's operations must come from {@code random}, a fresh stream derived from the seed for
     * this terminal and this phase: then a phase's operation sequence does not depend on how many operations
     * earlier phases happened to run.
     */
    void startPhase(PhaseConfig phase, SplittableRandom random);

    /**
     * Called before each operation, after its arrival is due and before its service time starts: the place
     * to wait for a lost connection, so that the wait is not counted as one operation's service time (in an
     * open loop the response time, measured from the intended start, still includes it). A wait must end
     * soon after {@code stillWanted} turns false (the phase ended); then return false and the operation is
     * not run. Never throws.
     */
    default boolean beforeOperation(BooleanSupplier stillWanted) {
        return true;
    }

    /**
     * Called before each operation of a phase whose ramp moves benchmark parameters ({@code PhaseConfig.ramp()}),
     * before {@link #execute}: the operation's time in the phase by the schedule (its intended start), in seconds
     * since the phase's measured start (negative in warmup), so the benchmark can move its ramped settings
     * ({@code RampConfig.fraction}). Not called in other phases, so they pay nothing for it.
     */
    default void rampTime(double elapsedSeconds) {}

    /** Executes one transaction of the type at this index of the config's transaction types. */
    OpResult execute(int transactionTypeIndex);

    @Override
    void close();
}
