package org.ivsbench.stats;

import java.util.List;

import org.ivsbench.op.Outcome;

/**
 * What a live view of a run (the metrics endpoint) receives from its statistics: the phases as they open, and for
 * each phase the same operations, missed arrivals and warmup operations {@link PhaseStats} records, from the same
 * call, so its totals equal summary.json's. Calls come from the terminals' threads concurrently; they must be cheap
 * and must not block.
 */
public interface OperationListener {
    /** Ignores everything. */
    OperationListener NONE = (index, name, types) -> PhaseListener.NONE;

    /** A phase opens; its operations are reported to the listener returned. */
    PhaseListener phaseOpened(int index, String name, List<String> types);

    /** One phase's operations; {@code type} indexes the types given to {@link #phaseOpened}. */
    interface PhaseListener {
        PhaseListener NONE = new PhaseListener() {
            @Override
            public void recorded(int type, Outcome outcome, long responseNanos) {}

            @Override
            public void missed() {}

            @Override
            public void warmup() {}
        };

        /** One measured operation; {@code responseNanos} from its intended start. */
        void recorded(int type, Outcome outcome, long responseNanos);

        /** One measured arrival given up as missed. */
        void missed();

        /** One warmup operation (not part of the measured totals). */
        void warmup();
    }
}
