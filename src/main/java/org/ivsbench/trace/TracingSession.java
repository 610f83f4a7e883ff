package org.ivsbench.trace;

import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * A session that writes each record operation to the trace, with its terminal, sequence number, phase and the
 * start offset of the benchmark operation it belongs to, and the hash of what each read returned. An operation
 * that throws is written with outcome ERROR (replay runs it again: a failure is a fact of the original run, not
 * of the stream).
 */
final class TracingSession implements Session {
    private final Session session;
    private final TerminalTrace trace;

    TracingSession(Session session, TerminalTrace trace) {
        this.session = session;
        this.trace = trace;
    }

    @Override
    public OpResult read(String table, String key, List<String> fields, Map<String, String> out)
            throws TargetException {
        ObjectNode r = trace.record(TraceOp.READ, table, key);
        putFields(r, fields);
        OpResult result = null;
        try {
            result = session.read(table, key, fields, out);
            return result;
        } finally {
            trace.finishRead(r, result, result == null ? null : ResultDigest.ofRead(result, out));
        }
    }

    @Override
    public OpResult scan(String table, String startKey, int count, List<String> fields, List<Map<String, String>> out)
            throws TargetException {
        ObjectNode r = trace.record(TraceOp.SCAN, table, startKey);
        r.put("n", count);
        putFields(r, fields);
        return finishScan(r, () -> session.scan(table, startKey, count, fields, out), out);
    }

    @Override
    public OpResult scanBetween(
            String table, String startKey, String endKey, List<String> fields, List<Map<String, String>> out)
            throws TargetException {
        ObjectNode r = trace.record(TraceOp.SCAN_BETWEEN, table, startKey);
        r.put("end", endKey);
        putFields(r, fields);
        return finishScan(r, () -> session.scanBetween(table, startKey, endKey, fields, out), out);
    }

    /** A range read's record, finished with the digest of the rows it returned (or its failure). */
    private OpResult finishScan(ObjectNode r, Call call, List<Map<String, String>> out) throws TargetException {
        OpResult result = null;
        try {
            result = call.run();
            return result;
        } finally {
            trace.finishRead(r, result, result == null ? null : ResultDigest.ofScan(result, out));
        }
    }

    @Override
    public OpResult update(String table, String key, Map<String, String> values) throws TargetException {
        ObjectNode r = trace.record(TraceOp.UPDATE, table, key);
        putValues(r, values);
        return finish(r, () -> session.update(table, key, values));
    }

    @Override
    public OpResult insert(String table, String key, Map<String, String> values) throws TargetException {
        ObjectNode r = trace.record(TraceOp.INSERT, table, key);
        putValues(r, values);
        return finish(r, () -> session.insert(table, key, values));
    }

    @Override
    public OpResult delete(String table, String key) throws TargetException {
        ObjectNode r = trace.record(TraceOp.DELETE, table, key);
        return finish(r, () -> session.delete(table, key));
    }

    @Override
    public OpResult deleteRange(String table, String startKey, int count, LongConsumer deleted) throws TargetException {
        ObjectNode r = trace.record(TraceOp.DELETE_RANGE, table, startKey);
        r.put("n", count);
        return finish(r, () -> session.deleteRange(table, startKey, count, deleted));
    }

    @Override
    public OpResult deleteBetween(String table, String startKey, String endKey, LongConsumer deleted)
            throws TargetException {
        ObjectNode r = trace.record(TraceOp.DELETE_BETWEEN, table, startKey);
        r.put("end", endKey);
        return finish(r, () -> session.deleteBetween(table, startKey, endKey, deleted));
    }

    @Override
    public OpResult extend(String table, String key, String field, String suffix, long maxLength, ExtendMethod method)
            throws TargetException {
        ObjectNode r = trace.record(TraceOp.EXTEND, table, key);
        r.put("field", field);
        r.put("suffix", suffix);
        r.put("max", maxLength);
        r.put("method", method.name());
        return finish(r, () -> session.extend(table, key, field, suffix, maxLength, method));
    }

    /** The loader's path: not part of a run's operation stream. */
    @Override
    public void insertBatch(String table, List<Record> records) throws TargetException {
        session.insertBatch(table, records);
    }

    @Override
    public void close() {
        session.close();
    }

    private interface Call {
        OpResult run() throws TargetException;
    }

    private OpResult finish(ObjectNode r, Call call) throws TargetException {
        OpResult result = null;
        try {
            result = call.run();
            return result;
        } finally {
            trace.finish(r, result);
        }
    }

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
