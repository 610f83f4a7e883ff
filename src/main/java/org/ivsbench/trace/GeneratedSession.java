package org.ivsbench.trace;

import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.op.OpResult;

/**
 * A session with no database behind it: it writes each record operation it is asked for to the trace, in the
 * format replay reads, and answers OK. Its reads carry no result hash (there is no result) and its records no
 * outcome. A procedure that decides on a result (a read-modify-write updates only after a read that found the
 * record) therefore takes the path of success: on a database where every key it draws exists, the stream is what
 * the terminals would issue.
 */
final class GeneratedSession implements Session {
    private final TerminalTrace trace;

    GeneratedSession(TerminalTrace trace) {
        this.trace = trace;
    }

    @Override
    public OpResult read(String table, String key, List<String> fields, Map<String, String> out) {
        ObjectNode r = trace.record(TraceOp.READ, table, key);
        putFields(r, fields);
        trace.emit(r);
        return OpResult.ok();
    }

    @Override
    public OpResult scan(String table, String startKey, int count, List<String> fields, List<Map<String, String>> out) {
        ObjectNode r = trace.record(TraceOp.SCAN, table, startKey);
        r.put("n", count);
        putFields(r, fields);
        trace.emit(r);
        return OpResult.ok();
    }

    @Override
    public OpResult scanBetween(
            String table, String startKey, String endKey, List<String> fields, List<Map<String, String>> out) {
        ObjectNode r = trace.record(TraceOp.SCAN_BETWEEN, table, startKey);
        r.put("end", endKey);
        putFields(r, fields);
        trace.emit(r);
        return OpResult.ok();
    }

    @Override
    public OpResult update(String table, String key, Map<String, String> values) {
        ObjectNode r = trace.record(TraceOp.UPDATE, table, key);
        putValues(r, values);
        trace.emit(r);
        return OpResult.ok();
    }

    @Override
    public OpResult insert(String table, String key, Map<String, String> values) {
        ObjectNode r = trace.record(TraceOp.INSERT, table, key);
        putValues(r, values);
        trace.emit(r);
        return OpResult.ok();
    }

    @Override
    public OpResult delete(String table, String key) {
        trace.emit(trace.record(TraceOp.DELETE, table, key));
        return OpResult.ok();
    }

    @Override
    public OpResult deleteRange(String table, String startKey, int count, LongConsumer deleted) {
        ObjectNode r = trace.record(TraceOp.DELETE_RANGE, table, startKey);
        r.put("n", count);
        trace.emit(r);
        return OpResult.ok();
    }

    @Override
    public OpResult deleteBetween(String table, String startKey, String endKey, LongConsumer deleted) {
        ObjectNode r = trace.record(TraceOp.DELETE_BETWEEN, table, startKey);
        r.put("end", endKey);
        trace.emit(r);
        return OpResult.ok();
    }

    @Override
    public OpResult extend(String table, String key, String field, String suffix, long maxLength, ExtendMethod method) {
        ObjectNode r = trace.record(TraceOp.EXTEND, table, key);
        r.put("field", field);
        r.put("suffix", suffix);
        r.put("max", maxLength);
        r.put("method", method.name());
        trace.emit(r);
        return OpResult.ok();
    }

    /** The loader's path: a generated stream holds the run's operations only (replay loads the data itself). */
    @Override
    public void insertBatch(String table, List<Record> records) {}

    @Override
    public void close() {}

    private static void putFields(ObjectNode r, List<String> fields) {
        if (fields != null) {
            fields.forEach(r.putArray("fields")::add);
        }
    }

    private static void putValues(ObjectNode r, Map<String, String> values) {
        ObjectNode v = r.putObject("values");
        values.forEach(v::put);
    }
}
