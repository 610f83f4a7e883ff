package org.ivsbench.db.memory;

import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * Record operations on a {@link MemoryTarget}'s tables, each atomic under its table's lock, with the outcomes
 * the SQL and MongoDB sessions give: a missing key is ABORTED, an extend past the cap is SKIPPED and writes
 * nothing. Values are ASCII in this benchmark, so a string's length is its size in bytes.
 */
final class MemorySession implements Session {
    private static final String NOT_FOUND = "not found";

    private final MemoryTarget target;

    MemorySession(MemoryTarget target) {
        this.target = target;
    }

    @Override
    public OpResult read(String table, String key, List<String> fields, Map<String, String> out)
            throws TargetException {
        MemoryTarget.Table t = target.table(table);
        synchronized (t) {
            Map<String, String> row = t.rows.get(key);
            if (row == null) {
                return OpResult.aborted(NOT_FOUND);
            }
            return OpResult.ok(copy(row, fields == null ? t.fields : fields, out), 0);
        }
    }

    @Override
    public OpResult scan(String table, String startKey, int count, List<String> fields, List<Map<String, String>> out)
            throws TargetException {
        MemoryTarget.Table t = target.table(table);
        long bytes = 0;
        synchronized (t) {
            for (Map<String, String> row : t.rows.tailMap(startKey, true).values()) {
                if (out.size() >= count) {
                    break;
                }
                Map<String, String> copy = new LinkedHashMap<>();
                bytes += copy(row, fields == null ? t.fields : fields, copy);
                out.add(copy);
            }
        }
        return OpResult.ok(bytes, 0);
    }

    @Override
    public OpResult scanBetween(
            String table, String startKey, String endKey, List<String> fields, List<Map<String, String>> out)
            throws TargetException {
        MemoryTarget.Table t = target.table(table);
        long bytes = 0;
        synchronized (t) {
            if (startKey.compareTo(endKey) <= 0) {
                for (Map<String, String> row :
                        t.rows.subMap(startKey, true, endKey, true).values()) {
                    Map<String, String> copy = new LinkedHashMap<>();
                    bytes += copy(row, fields == null ? t.fields : fields, copy);
                    out.add(copy);
                }
            }
        }
        return OpResult.ok(bytes, 0);
    }

    @Override
    public OpResult update(String table, String key, Map<String, String> values) throws TargetException {
        MemoryTarget.Table t = target.table(table);
        synchronized (t) {
            Map<String, String> row = t.rows.get(key);
            if (row == null) {
                return OpResult.aborted(NOT_FOUND);
            }
            row.putAll(values);
        }
        return OpResult.ok(0, size(values));
    }

    @Override
    public OpResult insert(String table, String key, Map<String, String> values) throws TargetException {
        MemoryTarget.Table t = target.table(table);
        synchronized (t) {
            if (t.rows.containsKey(key)) {
                return OpResult.aborted("duplicate key");
            }
            t.rows.put(key, new LinkedHashMap<>(values));
        }
        return OpResult.ok(0, size(values));
    }

    @Override
    public OpResult delete(String table, String key) throws TargetException {
        MemoryTarget.Table t = target.table(table);
        synchronized (t) {
            return t.rows.remove(key) == null ? OpResult.aborted(NOT_FOUND) : OpResult.ok();
        }
    }

    @Override
    public OpResult deleteRange(String table, String startKey, int count, LongConsumer deleted) throws TargetException {
        MemoryTarget.Table t = target.table(table);
        long rows = 0;
        synchronized (t) {
            Iterator<String> keys = t.rows.tailMap(startKey, true).keySet().iterator();
            while (rows < count && keys.hasNext()) {
                keys.next();
                keys.remove();
                rows++;
            }
        }
        deleted.accept(rows);
        return rows == 0 ? OpResult.aborted(NOT_FOUND) : OpResult.ok();
    }

    @Override
    public OpResult deleteBetween(String table, String startKey, String endKey, LongConsumer deleted)
            throws TargetException {
        MemoryTarget.Table t = target.table(table);
        long rows = 0;
        synchronized (t) {
            if (startKey.compareTo(endKey) <= 0) {
                Map<String, Map<String, String>> range = t.rows.subMap(startKey, true, endKey, true);
                rows = range.size();
                range.clear();
            }
        }
        deleted.accept(rows);
        return rows == 0 ? OpResult.aborted(NOT_FOUND) : OpResult.ok();
    }

    /** Both methods are one atomic step here; CLIENT reports the bytes it read, as the SQL session does. */
    @Override
    public OpResult extend(String table, String key, String field, String suffix, long maxLength, ExtendMethod method)
            throws TargetException {
        MemoryTarget.Table t = target.table(table);
        synchronized (t) {
            Map<String, String> row = t.rows.get(key);
            if (row == null) {
                return OpResult.aborted(NOT_FOUND);
            }
            String current = row.getOrDefault(field, "");
            long have = current == null ? 0 : current.length();
            long read = method != ExtendMethod.SERVER ? have : 0;
            if (have + suffix.length() > maxLength) {
                // As the real sessions: the size is known where the client saw the value (not on the server path).
                return OpResult.skipped("cap", read)
                        .withSize(method != ExtendMethod.SERVER ? have : OpResult.UNKNOWN_SIZE);
            }
            String extended = current == null ? suffix : current.concat(suffix);
            row.put(field, extended);
            return method != ExtendMethod.SERVER
                    ? OpResult.ok(read, extended.length()).withSize(extended.length())
                    : OpResult.ok(read, suffix.length());
        }
    }

    /** All or nothing: a duplicate key anywhere in the batch inserts none of it. */
    @Override
    public void insertBatch(String table, List<Record> records) throws TargetException {
        MemoryTarget.Table t = target.table(table);
        Set<String> keys = new HashSet<>();
        synchronized (t) {
            for (Record r : records) {
                if (t.rows.containsKey(r.key()) || !keys.add(r.key())) {
                    throw new TargetException("batch insert into " + table + " failed: duplicate key " + r.key());
                }
            }
            for (Record r : records) {
                t.rows.put(r.key(), new LinkedHashMap<>(r.fields()));
            }
        }
    }

    @Override
    public void close() {
        // A session holds nothing.
    }

    private static long copy(Map<String, String> row, List<String> fields, Map<String, String> out) {
        long bytes = 0;
        for (String field : fields) {
            String value = row.get(field);
            out.put(field, value);
            bytes += value == null ? 0 : value.length();
        }
        return bytes;
    }

    private static long size(Map<String, String> values) {
        long bytes = 0;
        for (String value : values.values()) {
            bytes += value == null ? 0 : value.length();
        }
        return bytes;
    }
}
