package org.ivsbench.bench.ycsbivs.procedures;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.ivsbench.bench.ycsbivs.YcsbIvsParameters;
import org.ivsbench.db.Session;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;
import org.ivsbench.random.CounterGenerator;
import org.ivsbench.random.LiveKeys;
import org.ivsbench.random.LongGenerator;
import org.ivsbench.random.RandomValues;

/**
 * What a procedure works with: the terminal's session, and the key generator and random stream of the
 * phase it is in. Every random choice of an operation (key, field, value bytes) is drawn here, from that
 * stream only, in a fixed order per procedure, so one seed gives one operation sequence per terminal and
 * phase. (Insert keys are the exception: they come from a counter shared by the terminals.) Owned by one
 * terminal thread; {@link #startPhase} comes before the first operation.
 */
public final class ProcedureContext {
    /** Appended to a key to make one that no record has: outside the alphabet of {@link KeyNames}. */
    public static final char ABSENT_MARK = '~';

    private static final String NOT_FOUND = "not found";
    private final YcsbIvsParameters parameters;
    private final List<String> fields;
    private final CounterGenerator insertCounter;
    private final RangeRows rangeRows;
    private SplittableRandom random;
    private Session session;
    private LongGenerator keys;
    /** The phase's section, or null when the workload has no sections; and the cells its keys draw over. */
    private SectionKeys section;

    private long cells;

    public ProcedureContext(
            YcsbIvsParameters parameters, CounterGenerator insertCounter, Session session, RangeRows rangeRows) {
        this.rangeRows = rangeRows;
        this.parameters = parameters;
        this.fields = parameters.fieldNames();
        this.insertCounter = insertCounter;
        this.session = session;
    }

    public YcsbIvsParameters parameters() {
        return parameters;
    }

    public String table() {
        return parameters.table();
    }

    public Session session() {
        return session;
    }

    public void session(Session newSession) {
        this.session = newSession;
    }

    /** The key generator and random stream of the phase that starts now. */
    public void startPhase(LongGenerator phaseKeys, SplittableRandom phaseRandom) {
        this.keys = phaseKeys;
        this.random = phaseRandom;
    }

    /**
     * The section the phase runs in and the dense key space its distributions draw over ({@link
     * SectionKeys#cells}); keys are then chosen among the section's live keys. Null: no sections.
     */
    public void section(SectionKeys phaseSection, long phaseCells) {
        this.section = phaseSection;
        this.cells = phaseCells;
    }

    /** True when keys come from a section's live keys. */
    public boolean sectioned() {
        return section != null;
    }

    /** The key chooser of the operation about to run (its type's own, or the phase's). */
    public void keys(LongGenerator operationKeys) {
        this.keys = operationKeys;
    }

    /**
     * A key of an existing record, by the distribution of the phase or of the operation's type; with sections, a
     * live key of the phase's section ({@link NoLiveKey} when none is live).
     */
    public String nextKey() {
        if (section != null) {
            return section.key(liveNumber());
        }
        return parameters.keyName(keys.next(random));
    }

    /** A live key number of the phase's section by the distribution ({@link NoLiveKey} when none is live). */
    private long liveNumber() {
        long number = section.live().pickLive(keys, cells, random);
        if (number == LiveKeys.NONE) {
            throw new NoLiveKey(section.name());
        }
        return number;
    }

    /**
     * A live key of the section for a delete, which stops being live at once ({@link LiveKeys#takeLive});
     * {@link #deleteDone} reports the outcome. Only with sections.
     */
    public long takeForDelete() {
        long number = section.live().takeLive(keys, cells, random);
        if (number == LiveKeys.NONE) {
            throw new NoLiveKey(section.name());
        }
        return number;
    }

    /** The key of a section's key number. */
    public String sectionKey(long number) {
        return section.key(number);
    }

    /** The delete of a taken key ended: the record is known absent when it succeeded or found nothing. */
    public void deleteDone(long number, OpResult result) {
        section.live().deleted(number, result != null && (result.isOk() || notFound(result)));
    }

    /**
     * A key that no record ever has: a key of the operation's distribution followed by {@link #ABSENT_MARK}.
     * Loaded and inserted keys are named by the key shape only (YCSB's {@link KeyNames#key}, or a
     * {@code <keys>} shape: segments, digits and padding letters), which never holds that character, so the two
     * key spaces are disjoint. An absent key sorts among the table's keys (user123 &lt; user1239 &lt; user123~ &lt;
     * user124), so a lookup walks the index as a real one does rather than falling off its end.
     *
     * <p>With sections, an empty operation picks a key of the section that was deleted (gone), by the
     * operation's distribution over the gone keys; while none is gone, a key next to one of the section's
     * numbers with the mark, as above.
     */
    public String absentKey() {
        if (section != null) {
            long gone = section.live().pickGone(keys, cells, random);
            if (gone != LiveKeys.NONE) {
                return section.key(gone);
            }
            // Nothing deleted yet: a key outside the section's key space, next to one of its numbers.
            long numbers = Math.max(1, section.live().nextNumber());
            return section.key(random.nextLong(numbers)) + ABSENT_MARK;
        }
        return nextKey() + ABSENT_MARK;
    }

    /** The operation found no record (how every binding reports a missing key). */
    static boolean notFound(OpResult result) {
        return result.outcome() == Outcome.ABORTED && NOT_FOUND.equals(result.reason());
    }

    /**
     * A range by its two ends (KVBench's form), as {start key, end key}: the start by the operation's distribution
     * as {@link #nextKey} draws it, then a length n by rangelengthdistribution, and the end the key n - 1 places
     * after the start in key-number order, which the config check has made key order ({@code
     * RangeReadByKeysRecord}): with sections, among the section's live keys (the last live key when fewer follow,
     * {@link LiveKeys#liveAfter}); without, key number start + n - 1 (a range past the last record holds fewer).
     */
    public String[] keyRange() {
        if (section != null) {
            long start = liveNumber();
            long end = section.live().liveAfter(start, rangeLength() - 1L);
            return new String[] {section.key(start), section.key(end)};
        }
        long start = keys.next(random);
        return new String[] {parameters.keyName(start), parameters.keyName(start + rangeLength() - 1L)};
    }

    /**
     * A range delete's keys in a section, in key-number order (the config check has made it key order): a start
     * live key by the operation's distribution and the n - 1 live keys after it, n by rangelengthdistribution (as
     * {@link #keyRange} draws them), taken at once ({@link LiveKeys#takeRange}) so that no other operation chooses
     * them while the delete runs; {@link #rangeDeleteDone} reports the outcome. Only with sections.
     */
    public long[] takeRangeForDelete() {
        long start = liveNumber();
        long[] taken = section.live().takeRange(start, rangeLength() - 1L);
        if (taken.length == 0) {
            throw new NoLiveKey(section.name());
        }
        return taken;
    }

    /** The range delete of taken keys ended: all known absent when it succeeded or found nothing. */
    public void rangeDeleteDone(long[] numbers, OpResult result) {
        section.live().deleted(numbers, result != null && (result.isOk() || notFound(result)));
    }

    /** Records per range operation, by rangelengthdistribution. */
    public int rangeLength() {
        return parameters.rangeLengths().next(random);
    }

    public RangeRows rangeRows() {
        return rangeRows;
    }

    /** A key number never used before in this run (the shared counter starts at recordcount). */
    public long nextInsertNumber() {
        return section != null ? section.live().reserveInsert() : insertCounter.next();
    }

    public String insertKey(long number) {
        return section != null ? section.key(number) : parameters.keyName(number);
    }

    /**
     * The insert of {@code number} finished (ok or not): the choosers that follow inserts may now pick it; with
     * sections, the key is live when the insert succeeded.
     */
    public void insertDone(long number, boolean succeeded) {
        if (section != null) {
            section.live().inserted(number, succeeded);
        } else {
            insertCounter.acknowledge(number);
        }
    }

    public String randomField() {
        return fields.get(random.nextInt(fields.size()));
    }

    public List<String> allFields() {
        return fields;
    }

    /** The fields a read asks for: all (as an explicit list) or one chosen uniformly. */
    public List<String> readFields() {
        return parameters.readAllFields() ? fields : List.of(randomField());
    }

    /** The fields an update or extend touches: one chosen uniformly unless writeallfields. */
    public List<String> writeFields() {
        return parameters.writeAllFields() ? fields : List.of(randomField());
    }

    /** New values for the given fields, in field order, each of a length by fieldlengthdistribution. */
    public Map<String, String> values(List<String> forFields) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String field : forFields) {
            values.put(field, value(parameters.fieldLengths().next(random)));
        }
        return values;
    }

    /** The length of the next extend's suffix, by extendlengthdistribution. */
    public int extendLength() {
        return parameters.extendLengths().next(random);
    }

    public String value(int length) {
        return RandomValues.ascii(random, length);
    }

    public int scanLength() {
        return 1 + random.nextInt(parameters.scanLength());
    }
}
