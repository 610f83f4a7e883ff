package org.ivsbench.engine;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.Terminal;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RateSpec;
import org.ivsbench.op.OpResult;
import org.ivsbench.stats.PhaseSummary;

import static org.ivsbench.engine.EngineRun.TYPES;
import static org.ivsbench.engine.EngineRun.phase;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * latency.hlog read the way HdrHistogram's own tools read it (HistogramLogProcessor asks for the intervals
 * from 0 s on, relative to the log's start): every measured operation of summary.json is in the tagged intervals
 * and again in the untagged all-types one of each window (the tagged ones added). On the real
 * clock because the windows follow the wall clock: 4,000 arrivals at 2,000/s take at least two seconds and cross
 * at least one boundary, so the first window begins before the run did. A count, not a time, ends the phase: every
 * one of the 4,000 runs however long the box takes, so the expectation is exact.
 */
@Tag("realclock")
class LatencyLogTest {
    @TempDir
    Path dir;

    @Test
    void aStandardReaderDecodesEveryOperation() throws Exception {
        EngineRun run = new EngineRun(
                dir, Clock.SYSTEM, List.of(phase(0, 0, 4000, 0, RateSpec.open(2000), 2, 50, 50)), TYPES, 2, 1);
        List<PhaseSummary> s = run.run(id -> new Terminal() {
            @Override
            public void startPhase(PhaseConfig phase, SplittableRandom random) {}

            @Override
            public OpResult execute(int type) {
                return OpResult.ok();
            }

            @Override
            public void close() {}
        });
        long tagged = 0;
        long untagged = 0;
        Map<Long, Long> taggedByWindow = new TreeMap<>();
        Map<Long, Long> untaggedByWindow = new TreeMap<>();
        File log = run.runDir().resolve("latency.hlog").toFile();
        HistogramLogReader reader = new HistogramLogReader(log);
        EncodableHistogram e;
        while ((e = reader.nextIntervalHistogram(0.0, Double.MAX_VALUE)) != null) {
            Histogram h = (Histogram) e;
            if (h.getTag() == null) {
                untagged += h.getTotalCount();
                untaggedByWindow.merge(h.getStartTimeStamp(), h.getTotalCount(), Long::sum);
            } else {
                tagged += h.getTotalCount();
                taggedByWindow.merge(h.getStartTimeStamp(), h.getTotalCount(), Long::sum);
            }
        }
        reader.close();
        assertEquals(4000, s.get(0).counts().total());
        assertEquals(s.get(0).counts().total(), tagged, "operations in latency.hlog's tagged intervals");
        assertEquals(s.get(0).counts().total(), untagged, "operations in latency.hlog's untagged intervals");
        assertEquals(taggedByWindow, untaggedByWindow, "per window, the untagged interval is the tagged ones' sum");
    }
}
