package org.ivsbench.db.cassandra;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;

import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;

/**
 * Record operations on the target's shared driver session (the driver pools connections and routes each request
 * to a replica), so opening and closing sessions is free. Reads go at the target's read consistency, writes at
 * its write consistency.
 *
 * <p>UPDATE and INSERT are both upserts in CQL: an update of a missing key creates it, so update reports no
 * NOT FOUND (as with YCSB's Cassandra binding); a delete of a missing key is OK as well. READ and the read of an
 * EXTEND report a missing key as ABORTED "not found".
 *
 * <p>EXTEND (CLIENT only; see {@link CassandraKind} for why there is no SERVER form) sends
 * {@code SELECT field FROM t WHERE key = ?}; when the grown value would pass the cap nothing else is sent
 * (SKIPPED "cap"); otherwise, with extendWrite=plain, {@code UPDATE t SET field = ? WHERE key = ?} (last write
 * wins, a concurrent extend of the same field can be lost, as in YCSB-IVS), or with extendWrite=conditional the
 * lightweight transaction {@code UPDATE t SET field = ? WHERE key = ? IF field = ?} with the value read, which
 * was then read at the serial consistency so that it sees any Paxos round in progress (a Paxos
 * round at the serial consistency: about four round trips between replicas instead of one). A conditional write
 * that finds the field changed reads again, up to {@link #EXTEND_ATTEMPTS} times, then reports ABORTED "conflict".
 */
final class CassandraSession implements Session {
    static final int EXTEND_ATTEMPTS = 5;

    private final CassandraTarget target;
    private final Statements statements;
    private final CassandraOptions options;

    CassandraSession(CassandraTarget target) {
        this.target = target;
        this.statements = target.statements();
        this.options = target.options();
    }

    @Override
    public OpResult read(String table, String key, List<String> fields, Map<String, String> out)
            throws TargetException {
        try {
            Row row = execute(statements.read(table, fields).bind(key), options.readConsistency())
                    .one();
            if (row == null) {
                return OpResult.aborted("not found");
            }
            return OpResult.ok(copyFields(row, statements.keyColumn(table), out), 0);
        } catch (RuntimeException e) {
            return CassandraErrors.outcomeOrThrow("read", e);
        }
    }

    @Override
    public OpResult scan(String table, String startKey, int count, List<String> fields, List<Map<String, String>> out)
            throws TargetException {
        if (count <= 0) {
            return OpResult.ok();
        }
        long bytes = 0;
        try {
            String keyColumn = statements.keyColumn(table);
            BoundStatement bound =
                    statements.scan(table, fields).bind(startKey, count).setPageSize(count);
            for (Row row : execute(bound, options.readConsistency())) {
                Map<String, String> values = new LinkedHashMap<>();
                bytes += copyFields(row, keyColumn, values);
                out.add(values);
            }
            return OpResult.ok(bytes, 0);
        } catch (RuntimeException e) {
            return CassandraErrors.outcomeOrThrow("scan", e);
        }
    }

    @Override
    public OpResult update(String table, String key, Map<String, String> values) throws TargetException {
        if (values.isEmpty()) {
            return OpResult.ok();
        }
        List<String> fields = new ArrayList<>(values.keySet());
        Object[] args = new Object[fields.size() + 1];
        for (int i = 0; i < fields.size(); i++) {
            args[i] = values.get(fields.get(i));
        }
        args[fields.size()] = key;
        try {
            execute(statements.update(table, fields).bind(args), options.writeConsistency());
            return OpResult.ok(0, utf8Bytes(values));
        } catch (RuntimeException e) {
            return CassandraErrors.outcomeOrThrow("update", e);
        }
    }

    @Override
    public OpResult insert(String table, String key, Map<String, String> values) throws TargetException {
        try {
            execute(bindInsert(table, key, values), options.writeConsistency());
            return OpResult.ok(0, utf8Bytes(values));
        } catch (RuntimeException e) {
            return CassandraErrors.outcomeOrThrow("insert", e);
        }
    }

    @Override
    public OpResult delete(String table, String key) throws TargetException {
        try {
            execute(statements.delete(table).bind(key), options.writeConsistency());
            return OpResult.ok();
        } catch (RuntimeException e) {
            return CassandraErrors.outcomeOrThrow("delete", e);
        }
    }

    @Override
    public OpResult extend(String table, String key, String field, String suffix, long maxLength, ExtendMethod method)
            throws TargetException {
        if (method == ExtendMethod.SERVER) {
            throw new TargetException(
                    "Cassandra has no server-side extend (CQL cannot append to text); extend on the client");
        }
        boolean conditional = options.extendWrite() == CassandraOptions.ExtendWrite.CONDITIONAL;
        long suffixBytes = utf8Length(suffix);
        long bytesRead = 0;
        long bytesWritten = 0;
        try {
            PreparedStatement select = statements.read(table, List.of(field));
            for (int attempt = 0; attempt < EXTEND_ATTEMPTS; attempt++) {
                Row row = execute(
                                select.bind(key), conditional ? options.serialConsistency() : options.readConsistency())
                        .one();
                if (row == null) {
                    return OpResult.aborted("not found");
                }
                String old = row.getString(0);
                long oldBytes = utf8Length(old);
                bytesRead += oldBytes;
                long newBytes = oldBytes + suffixBytes;
                if (newBytes > maxLength) {
                    return new OpResult(Outcome.SKIPPED, "cap", bytesRead, 0, oldBytes);
                }
                String grown = old == null ? suffix : old.concat(suffix);
                if (!conditional) {
                    execute(statements.update(table, List.of(field)).bind(grown, key), options.writeConsistency());
                    return new OpResult(Outcome.OK, null, bytesRead, newBytes, newBytes);
                }
                BoundStatement cas = statements
                        .conditionalUpdate(table, field)
                        .bind(grown, key, old)
                        .setSerialConsistencyLevel(options.serialConsistency());
                bytesWritten += oldBytes + newBytes; // the old value goes along as the condition
                if (execute(cas, options.writeConsistency()).wasApplied()) {
                    return new OpResult(Outcome.OK, null, bytesRead, bytesWritten, newBytes);
                }
            }
            return new OpResult(Outcome.ABORTED, "conflict", bytesRead, bytesWritten);
        } catch (RuntimeException e) {
            return CassandraErrors.outcomeOrThrow("extend", e);
        }
    }

    /**
     * Not a CQL BATCH: a batch over many partitions is a coordinator-side multi-partition write (logged, or at
     * least funnelled through one node) that Cassandra advises against for bulk loading. The records go as
     * concurrent single-row inserts instead, all in flight together, and the call returns when every one has
     * answered; one failure fails the call (the others may have been written: inserts are idempotent upserts).
     */
    @Override
    public void insertBatch(String table, List<Record> records) throws TargetException {
        if (records.isEmpty()) {
            return;
        }
        List<CompletableFuture<AsyncResultSet>> pending = new ArrayList<>(records.size());
        try {
            for (Record rec : records) {
                BoundStatement bound =
                        bindInsert(table, rec.key(), rec.fields()).setConsistencyLevel(options.writeConsistency());
                CompletionStage<AsyncResultSet> stage = target.session().executeAsync(bound);
                pending.add(stage.toCompletableFuture());
            }
            CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0]))
                    .join();
        } catch (CompletionException e) {
            RuntimeException cause = e.getCause() instanceof RuntimeException r ? r : e;
            throw CassandraErrors.failure("insert batch of " + records.size() + " records", cause);
        } catch (RuntimeException e) {
            throw CassandraErrors.failure("insert batch of " + records.size() + " records", e);
        }
    }

    @Override
    public void close() {
        // Nothing to release: the driver session and its pool belong to the target.
    }

    // ---- helpers

    private ResultSet execute(BoundStatement statement, ConsistencyLevel level) {
        return target.session().execute(statement.setConsistencyLevel(level));
    }

    private BoundStatement bindInsert(String table, String key, Map<String, String> values) throws TargetException {
        List<String> fields = new ArrayList<>(values.keySet());
        Object[] args = new Object[fields.size() + 1];
        args[0] = key;
        for (int i = 0; i < fields.size(); i++) {
            args[i + 1] = values.get(fields.get(i));
        }
        return statements.insert(table, fields).bind(args);
    }

    /** Copies every non-key column under the benchmark's names (nulls left out); returns the bytes of the values. */
    private static long copyFields(Row row, String keyColumn, Map<String, String> out) {
        long bytes = 0;
        for (int i = 0; i < row.getColumnDefinitions().size(); i++) {
            ColumnDefinition column = row.getColumnDefinitions().get(i);
            String name = column.getName().asInternal();
            if (column.getName().asCql(true).equals(keyColumn) || row.isNull(i)) {
                continue;
            }
            String value = row.getString(i);
            bytes += utf8Length(value);
            out.put(Statements.field(name), value);
        }
        return bytes;
    }

    private static long utf8Bytes(Map<String, String> values) {
        long bytes = 0;
        for (String v : values.values()) {
            bytes += utf8Length(v);
        }
        return bytes;
    }

    /** UTF-8 length without encoding: the cap is in bytes, and values grow to megabytes. */
    static long utf8Length(String s) {
        if (s == null) {
            return 0;
        }
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
