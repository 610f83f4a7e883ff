package org.ivsbench.db;

import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import org.ivsbench.op.OpResult;

/**
 * One connection's record operations, in the spirit of YCSB's storage interface. A session is used by one
 * thread only. Methods return an {@link OpResult} for outcomes the workload expects (not found, cap
 * reached, value too large for the server) and throw {@link TargetException} for failures of the session
 * itself (connection lost) or of the statement that the caller should count as an error.
 */
public interface Session extends AutoCloseable {

    /** Reads the given fields (null = all) of one record into {@code out}; NOT FOUND is ABORTED. */
    OpResult read(String table, String key, List<String> fields, Map<String, String> out) throws TargetException;

    /** Reads up to {@code count} records with key >= startKey in key order. */
    OpResult scan(String table, String startKey, int count, List<String> fields, List<Map<String, String>> out)
            throws TargetException;

    /**
     * Reads every record with {@code startKey <= key <= endKey}, in key order: a range given by both its ends
     * (KVBench's form; {@link #scan} gives a start and a count, YCSB's). No record in the range is still OK, with
     * no rows. Only kinds whose {@link KindFeatures} have {@link KindFeatures.Feature#RANGE_BETWEEN} implement it;
     * the config check keeps the others from being asked.
     */
    default OpResult scanBetween(
            String table, String startKey, String endKey, List<String> fields, List<Map<String, String>> out)
            throws TargetException {
        throw new TargetException("this database cannot read the records between two keys");
    }

    /** Replaces the given fields of one record. */
    OpResult update(String table, String key, Map<String, String> values) throws TargetException;

    /** Inserts one record. */
    OpResult insert(String table, String key, Map<String, String> values) throws TargetException;

    /** Deletes one record. */
    OpResult delete(String table, String key) throws TargetException;

    /**
     * Deletes one key range: the first {@code count} records with key >= startKey in key order, and gives the
     * number of records deleted to {@code deleted} (once, when the statement ran). None in the range is
     * ABORTED "not found", as for {@link #delete}. Only kinds whose {@link KindFeatures} have
     * {@link KindFeatures.Feature#RANGE_DELETE}
     * implement it; the config check keeps the others from being asked.
     */
    default OpResult deleteRange(String table, String startKey, int count, LongConsumer deleted)
            throws TargetException {
        throw new TargetException("this database cannot delete a key range");
    }

    /**
     * Deletes every record with {@code startKey <= key <= endKey}: a key range given by both its ends (as {@link
     * #scanBetween} reads one; a section's range delete, whose live keys it knows), in one request, and gives the
     * number of records deleted to {@code deleted} (once, when the statement ran). None in the range is ABORTED
     * "not found", as for {@link #delete}. Kinds with {@link KindFeatures.Feature#RANGE_BETWEEN} implement it.
     */
    default OpResult deleteBetween(String table, String startKey, String endKey, LongConsumer deleted)
            throws TargetException {
        throw new TargetException("this database cannot delete the records between two keys");
    }

    /**
     * Appends {@code suffix} to one field unless the result would be longer than {@code maxLength} bytes;
     * then nothing is written and the outcome is SKIPPED. CLIENT reads only that field and writes it back;
     * SERVER sends one guarded append statement. The result's {@link OpResult#sizeBytes()} is the field's length
     * after the extend (as it stayed, when SKIPPED) where the session saw the value (CLIENT, CLIENT_PLAIN), and
     * unknown for SERVER.
     */
    OpResult extend(String table, String key, String field, String suffix, long maxLength, ExtendMethod method)
            throws TargetException;

    /** Inserts many records in one batch (the loader's path); all or nothing per batch where supported. */
    void insertBatch(String table, List<Record> records) throws TargetException;

    @Override
    void close();
}
