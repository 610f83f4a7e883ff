package org.ivsbench.bench.ycsbivs.procedures;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.ivsbench.bench.ycsbivs.YcsbIvsParameters;
import org.ivsbench.db.Session;
import org.ivsbench.random.CounterGenerator;
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
    private final YcsbIvsParameters parameters;
    private final List<String> fields;
    private final CounterGenerator insertCounter;
    private SplittableRandom random;
    private Session session;
    private LongGenerator keys;

    public ProcedureContext(YcsbIvsParameters parameters, CounterGenerator insertCounter, Session session) {
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

    /** The key chooser of the operation about to run (its type's own, or the phase's). */
    public void keys(LongGenerator operationKeys) {
        this.keys = operationKeys;
    }

    /** A key of an existing record, by the distribution of the phase or of the operation's type. */
    public String nextKey() {
        return parameters.keyName(keys.next(random));
    }

    /** A key number never used before in this run (the shared counter starts at recordcount). */
    public long nextInsertNumber() {
        return insertCounter.next();
    }

    public String insertKey(long number) {
        return parameters.keyName(number);
    }

    /** The insert of {@code number} finished (ok or not): the choosers that follow inserts may now pick it. */
    public void insertDone(long number) {
        insertCounter.acknowledge(number);
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
