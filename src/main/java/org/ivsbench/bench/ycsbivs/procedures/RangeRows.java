package org.ivsbench.bench.ycsbivs.procedures;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The records the range operations of one run returned and deleted, summed over its terminals (warmup
 * included): the outcome counts say how many range operations ran, these say how many records they touched,
 * so a run can be checked against the server's own row counts. Thread-safe.
 */
public final class RangeRows {
    private final LongAdder reads = new LongAdder();
    private final LongAdder rowsRead = new LongAdder();
    private final LongAdder readsByKeys = new LongAdder();
    private final LongAdder rowsReadByKeys = new LongAdder();
    private final LongAdder deletes = new LongAdder();
    private final LongAdder rowsDeleted = new LongAdder();
    private final AtomicInteger openTerminals = new AtomicInteger();

    void read(long rows) {
        reads.increment();
        rowsRead.add(rows);
    }

    void readByKeys(long rows) {
        readsByKeys.increment();
        rowsReadByKeys.add(rows);
    }

    void deleted(long rows) {
        deletes.increment();
        rowsDeleted.add(rows);
    }

    public long rangeReads() {
        return reads.sum();
    }

    public long rowsRead() {
        return rowsRead.sum();
    }

    public long rangeReadsByKeys() {
        return readsByKeys.sum();
    }

    public long rowsReadByKeys() {
        return rowsReadByKeys.sum();
    }

    public long rangeDeletes() {
        return deletes.sum();
    }

    public long rowsDeleted() {
        return rowsDeleted.sum();
    }

    public void terminalOpened() {
        openTerminals.incrementAndGet();
    }

    /** True for the run's last terminal to close: the totals are final. */
    public boolean terminalClosed() {
        return openTerminals.decrementAndGet() == 0;
    }

    /** One line for the log; empty when the run did no range operation. */
    public String summary() {
        if (reads.sum() == 0 && deletes.sum() == 0 && readsByKeys.sum() == 0) {
            return "";
        }
        return "range operations (warmup included): RangeReadRecord returned " + rowsRead() + " records in "
                + rangeReads() + " operations; RangeDeleteRecord deleted " + rowsDeleted() + " records in "
                + rangeDeletes() + " operations"
                + (readsByKeys.sum() == 0
                        ? ""
                        : "; RangeReadByKeysRecord returned " + rowsReadByKeys() + " records in " + rangeReadsByKeys()
                                + " operations");
    }
}
