package org.ivsbench.stats;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

import org.ivsbench.op.Outcome;

/** Operation counts by outcome, plus the derived total. Immutable. */
public record OperationCounts(long ok, long skipped, long aborted, long error) {

    public static OperationCounts of(long[] byOutcome) {
        return new OperationCounts(
                byOutcome[Outcome.OK.ordinal()],
                byOutcome[Outcome.SKIPPED.ordinal()],
                byOutcome[Outcome.ABORTED.ordinal()],
                byOutcome[Outcome.ERROR.ordinal()]);
    }

    public long total() {
        return ok + skipped + aborted + error;
    }

    public OperationCounts plus(OperationCounts o) {
        return new OperationCounts(ok + o.ok, skipped + o.skipped, aborted + o.aborted, error + o.error);
    }

    public Map<String, Long> asMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put(Outcome.OK.label(), ok);
        m.put(Outcome.SKIPPED.label(), skipped);
        m.put(Outcome.ABORTED.label(), aborted);
        m.put(Outcome.ERROR.label(), error);
        return m;
    }

    static EnumMap<Outcome, Long> empty() {
        return new EnumMap<>(Outcome.class);
    }
}
