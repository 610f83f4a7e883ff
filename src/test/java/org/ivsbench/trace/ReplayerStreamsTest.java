package org.ivsbench.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ReplayerStreamsTest {
    private static TraceRecord read(int terminal, long seq, long offset) {
        return new TraceRecord(
                terminal, seq, 0, offset, TraceOp.READ, "t", "k", null, 0, null, null, null, null, 0, null, "OK", "h");
    }

    private static Map<Integer, List<TraceRecord>> trace() {
        Map<Integer, List<TraceRecord>> byTerminal = new TreeMap<>();
        byTerminal.put(0, List.of(read(0, 0, 10), read(0, 1, 10), read(0, 2, 30)));
        byTerminal.put(1, List.of(read(1, 0, 5), read(1, 1, 20)));
        byTerminal.put(2, List.of(read(2, 0, 1)));
        return byTerminal;
    }

    @Test
    void oneThreadPerRecordedTerminalByDefaultAndNeverMore() {
        assertEquals(3, Replayer.streams(trace(), 0).size());
        assertEquals(3, Replayer.streams(trace(), 8).size());
    }

    @Test
    void sharedThreadsMergeByOffsetAndKeepEachTerminalsOrder() {
        List<List<TraceRecord>> streams = Replayer.streams(trace(), 1);
        assertEquals(1, streams.size());
        List<String> order = new ArrayList<>();
        streams.get(0).forEach(r -> order.add(r.terminal() + ":" + r.seq()));
        assertEquals(List.of("2:0", "1:0", "0:0", "0:1", "1:1", "0:2"), order);
        List<List<TraceRecord>> two = Replayer.streams(trace(), 2);
        assertEquals(4, two.get(0).size()); // terminals 0 and 2
        assertEquals(2, two.get(1).size());
    }
}
