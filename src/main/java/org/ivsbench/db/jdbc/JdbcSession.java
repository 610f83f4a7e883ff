package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;

/**
 * One JDBC connection with a prepared statement per statement shape. Not thread-safe (one terminal).
 *
 * <p>Value bytes are counted as string lengths: values are ASCII, one byte per character.
 */
final class JdbcSession implements Session {
    static final String NOT_FOUND = "not found";
    static final String CAP = "cap";

    private final JdbcTarget target;
    private final Dialect dialect;
    private final SqlStatements sql;
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private Connection connection;
    private Statement plain;

    JdbcSession(JdbcTarget target, Connection connection) {
        this.target = target;
        this.dialect = target.dialect();
        this.sql = target.statements();
        this.connection = connection;
    }

    @Override
    public OpResult read(String table, String key, List<String> fields, Map<String, String> out)
            throws TargetException {
        try {
            TableLayout layout = target.layout(table);
            List<String> columns = fields == null ? layout.fields() : target.checkFields(fields);
            PreparedStatement ps = prepare(sql.select(table, layout.keyColumn(), nonEmpty(columns, layout), false));
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return OpResult.aborted(NOT_FOUND);
                }
                return OpResult.ok(collect(rs, columns, out), 0);
            }
        } catch (SQLException e) {
            return fail(e);
        }
    }

    @Override
    public OpResult scan(String table, String startKey, int count, List<String> fields, List<Map<String, String>> out)
            throws TargetException {
        try {
            TableLayout layout = target.layout(table);
            List<String> columns = fields == null ? layout.fields() : target.checkFields(fields);
            PreparedStatement ps = prepare(sql.scan(table, layout.keyColumn(), nonEmpty(columns, layout)));
            ps.setString(1, startKey);
            ps.setInt(2, count);
            return OpResult.ok(collectRows(ps, columns, out), 0);
        } catch (SQLException e) {
            return fail(e);
        }
    }

    @Override
    public OpResult scanBetween(
            String table, String startKey, String endKey, List<String> fields, List<Map<String, String>> out)
            throws TargetException {
        try {
            TableLayout layout = target.layout(table);
            List<String> columns = fields == null ? layout.fields() : target.checkFields(fields);
            PreparedStatement ps = prepare(sql.scanBetween(table, layout.keyColumn(), nonEmpty(columns, layout)));
            ps.setString(1, startKey);
            ps.setString(2, endKey);
            return OpResult.ok(collectRows(ps, columns, out), 0);
        } catch (SQLException e) {
            return fail(e);
        }
    }

    /** Runs a range query and adds its rows to {@code out}; gives the bytes read. */
    private long collectRows(PreparedStatement ps, List<String> columns, List<Map<String, String>> out)
            throws SQLException {
        long bytes = 0;
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                bytes += collect(rs, columns, row);
                out.add(row);
            }
        }
        return bytes;
    }

    @Override
    public OpResult update(String table, String key, Map<String, String> values) throws TargetException {
        try {
            TableLayout layout = target.layout(table);
            List<String> columns = target.checkFields(List.copyOf(values.keySet()));
            PreparedStatement ps = prepare(sql.update(table, layout.keyColumn(), columns));
            long bytes = bindValues(ps, columns, values, 1);
            ps.setString(columns.size() + 1, key);
            return ps.executeUpdate() == 0 ? OpResult.aborted(NOT_FOUND) : OpResult.ok(0, bytes);
        } catch (SQLException e) {
            return fail(e);
        }
    }

    @Override
    public OpResult insert(String table, String key, Map<String, String> values) throws TargetException {
        try {
            TableLayout layout = target.layout(table);
            List<String> columns = target.checkFields(List.copyOf(values.keySet()));
            PreparedStatement ps = prepare(sql.insert(table, layout.keyColumn(), columns));
            ps.setString(1, key);
            long bytes = bindValues(ps, columns, values, 2);
            ps.executeUpdate();
            return OpResult.ok(0, bytes);
        } catch (SQLException e) {
            return fail(e);
        }
    }

    @Override
    public OpResult delete(String table, String key) throws TargetException {
        try {
            PreparedStatement ps =
                    prepare(sql.delete(table, target.layout(table).keyColumn()));
            ps.setString(1, key);
            return ps.executeUpdate() == 0 ? OpResult.aborted(NOT_FOUND) : OpResult.ok();
        } catch (SQLException e) {
            return fail(e);
        }
    }

    @Override
    public OpResult deleteRange(String table, String startKey, int count, LongConsumer deleted) throws TargetException {
        try {
            PreparedStatement ps =
                    prepare(sql.deleteRange(table, target.layout(table).keyColumn()));
            ps.setString(1, startKey);
            ps.setInt(2, count);
            return rangeDeleted(ps.executeUpdate(), deleted);
        } catch (SQLException e) {
            return fail(e);
        }
    }

    @Override
    public OpResult deleteBetween(String table, String startKey, String endKey, LongConsumer deleted)
            throws TargetException {
        try {
            PreparedStatement ps =
                    prepare(sql.deleteBetween(table, target.layout(table).keyColumn()));
            ps.setString(1, startKey);
            ps.setString(2, endKey);
            return rangeDeleted(ps.executeUpdate(), deleted);
        } catch (SQLException e) {
            return fail(e);
        }
    }

    /** A range delete's outcome from its row count, which goes to {@code deleted}: none is "not found". */
    private static OpResult rangeDeleted(int rows, LongConsumer deleted) {
        deleted.accept(rows);
        return rows == 0 ? OpResult.aborted(NOT_FOUND) : OpResult.ok();
    }

    @Override
    public OpResult extend(String table, String key, String field, String suffix, long maxLength, ExtendMethod method)
            throws TargetException {
        try {
            TableLayout layout = target.layout(table);
            target.checkFields(List.of(field));
            return switch (method) {
                case SERVER -> extendOnServer(table, layout.keyColumn(), key, field, suffix, maxLength);
                case CLIENT -> extendOnClient(table, layout.keyColumn(), key, field, suffix, maxLength);
                case CLIENT_PLAIN -> extendPlain(table, layout.keyColumn(), key, field, suffix, maxLength);
            };
        } catch (SQLException e) {
            return fail(e);
        }
    }

    /**
     * Read the one field with the row locked, append here, write it back, in one transaction: without the
     * lock two terminals extending the same record would both read the old value and one append would be
     * lost. The cost is two extra round trips (begin, commit) and the row lock held across the client's
     * append; that is the price of the paper's client-side semantics, and the SERVER method avoids it.
     */
    private OpResult extendOnClient(
            String table, String keyColumn, String key, String field, String suffix, long maxLength)
            throws SQLException, TargetException {
        PreparedStatement select = prepare(sql.select(table, keyColumn, List.of(field), true));
        boolean committed = false;
        begin();
        try {
            OpResult r = readAppendWrite(select, sql.update(table, keyColumn, List.of(field)), key, suffix, maxLength);
            if (r.outcome() == Outcome.OK) {
                plain().execute("COMMIT");
                committed = true;
            }
            return r;
        } finally {
            if (!committed) {
                rollbackQuietly();
            }
        }
    }

    /**
     * The paper's binding: read the field, append here, write it back, each statement on its own (autocommit):
     * two round trips, no lock held. Only right while no other terminal extends the same record.
     */
    private OpResult extendPlain(
            String table, String keyColumn, String key, String field, String suffix, long maxLength)
            throws SQLException, TargetException {
        PreparedStatement select = prepare(sql.select(table, keyColumn, List.of(field), false));
        return readAppendWrite(select, sql.update(table, keyColumn, List.of(field)), key, suffix, maxLength);
    }

    /**
     * The client side of an extend: read the field with {@code select}, append, write it back with {@code
     * updateSql}. Without a row lock the record may be deleted between the two, which the update's count shows.
     */
    private OpResult readAppendWrite(
            PreparedStatement select, String updateSql, String key, String suffix, long maxLength)
            throws SQLException, TargetException {
        select.setString(1, key);
        String current;
        try (ResultSet rs = select.executeQuery()) {
            if (!rs.next()) {
                return OpResult.aborted(NOT_FOUND);
            }
            current = rs.getString(1);
        }
        long have = current == null ? 0 : current.length();
        if (have + suffix.length() > maxLength) {
            // Nothing is sent: the cap is a real skip. The value stays as it was, so that is its size.
            return new OpResult(Outcome.SKIPPED, CAP, have, 0, have);
        }
        String extended = current == null ? suffix : current.concat(suffix);
        PreparedStatement update = prepare(updateSql);
        update.setString(1, extended);
        update.setString(2, key);
        if (update.executeUpdate() == 0) {
            return new OpResult(Outcome.ABORTED, NOT_FOUND, have, extended.length()); // deleted in between
        }
        return new OpResult(Outcome.OK, null, have, extended.length(), extended.length());
    }

    /** One guarded statement; only when it changes nothing does a second one say why. */
    private OpResult extendOnServer(
            String table, String keyColumn, String key, String field, String suffix, long maxLength)
            throws SQLException, TargetException {
        PreparedStatement append = prepare(sql.guardedAppend(table, keyColumn, field));
        append.setString(1, suffix);
        append.setString(2, key);
        append.setLong(3, suffix.length());
        append.setLong(4, maxLength);
        if (append.executeUpdate() > 0) {
            return OpResult.ok(0, suffix.length());
        }
        PreparedStatement exists = prepare(sql.exists(table, keyColumn));
        exists.setString(1, key);
        try (ResultSet rs = exists.executeQuery()) {
            // The suffix was sent even though the guard refused it: bytes count what went to the server.
            boolean found = rs.next();
            return new OpResult(found ? Outcome.SKIPPED : Outcome.ABORTED, found ? CAP : NOT_FOUND, 0, suffix.length());
        }
    }

    @Override
    public void insertBatch(String table, List<Record> records) throws TargetException {
        if (records.isEmpty()) {
            return;
        }
        boolean committed = false;
        try {
            TableLayout layout = target.layout(table);
            begin();
            try {
                // Records of one shape go in one JDBC batch; the loader sends one shape only.
                Map<List<String>, List<Record>> byShape = new LinkedHashMap<>();
                for (Record r : records) {
                    byShape.computeIfAbsent(List.copyOf(r.fields().keySet()), k -> new ArrayList<>())
                            .add(r);
                }
                for (Map.Entry<List<String>, List<Record>> shape : byShape.entrySet()) {
                    List<String> columns = target.checkFields(shape.getKey());
                    PreparedStatement ps = prepare(sql.insert(table, layout.keyColumn(), columns));
                    for (Record r : shape.getValue()) {
                        ps.setString(1, r.key());
                        bindValues(ps, columns, r.fields(), 2);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
                plain().execute("COMMIT");
                committed = true;
            } finally {
                if (!committed) {
                    rollbackQuietly();
                }
            }
        } catch (SQLException e) {
            SqlFailure failure = dialect.classify(e);
            throw new TargetException(
                    "batch insert into " + table + " failed (" + failure.reason() + "): " + e.getMessage(),
                    e,
                    failure == SqlFailure.CONNECTION_LOST);
        }
    }

    private void begin() throws SQLException, TargetException {
        plain().execute(dialect.beginWriteSql());
    }

    private void rollbackQuietly() {
        try {
            plain().execute("ROLLBACK");
        } catch (SQLException | TargetException ignored) {
            // The failure that brought us here is the one to report; a dead connection is detected next.
        }
    }

    private Statement plain() throws SQLException, TargetException {
        if (plain == null) {
            connection();
            plain = connection.createStatement();
        }
        return plain;
    }

    private PreparedStatement prepare(String text) throws SQLException, TargetException {
        PreparedStatement ps = statements.get(text);
        if (ps == null) {
            ps = connection().prepareStatement(text);
            statements.put(text, ps);
        }
        return ps;
    }

    private List<String> nonEmpty(List<String> columns, TableLayout layout) {
        // Reading no fields is an existence check: select the key so the statement stays valid SQL.
        return columns.isEmpty() ? List.of(layout.keyColumn()) : columns;
    }

    private static long collect(ResultSet rs, List<String> columns, Map<String, String> out) throws SQLException {
        long bytes = 0;
        for (int i = 0; i < columns.size(); i++) {
            String value = rs.getString(i + 1);
            out.put(columns.get(i), value);
            if (value != null) {
                bytes += value.length();
            }
        }
        return bytes;
    }

    private static long bindValues(
            PreparedStatement ps, List<String> columns, Map<String, String> values, int firstIndex)
            throws SQLException {
        long bytes = 0;
        for (int i = 0; i < columns.size(); i++) {
            String value = values.get(columns.get(i));
            ps.setString(firstIndex + i, value);
            if (value != null) {
                bytes += value.length();
            }
        }
        return bytes;
    }

    /**
     * Expected refusals become outcomes; a lost connection or an unexplained statement failure is thrown.
     * After a packet-too-large failure the connection is always replaced: the server may have closed it
     * (error 1153), and with server-side prepared statements Connector/J 3.4.1 leaves its protocol state
     * out of step after refusing an oversized execute (isValid() still passes, the next statement fails
     * with an ArrayIndexOutOfBoundsException inside the driver). The failed operation is reported, the
     * next one runs on a fresh connection.
     */
    private OpResult fail(SQLException e) throws TargetException {
        SqlFailure failure = dialect.classify(e);
        if (failure == SqlFailure.PACKET_TOO_LARGE) {
            replaceConnection();
            return OpResult.error(failure.reason());
        }
        if (failure.isAbort()) {
            return OpResult.aborted(failure.reason());
        }
        String state = e.getSQLState() == null ? "" : " SQLState " + e.getSQLState();
        throw new TargetException(
                failure.reason() + state + ": " + e.getMessage(), e, failure == SqlFailure.CONNECTION_LOST);
    }

    /** The connection, reopened here if an earlier replacement failed (the server was away). */
    private Connection connection() throws TargetException {
        if (connection == null) {
            connection = target.connect();
        }
        return connection;
    }

    private void replaceConnection() throws TargetException {
        closeStatements();
        Connections.closeQuietly(connection);
        connection = null;
        connection = target.connect();
    }

    private void closeStatements() {
        statements.values().forEach(Connections::closeQuietly);
        statements.clear();
        Connections.closeQuietly(plain);
        plain = null;
    }

    @Override
    public void close() {
        closeStatements();
        Connections.closeQuietly(connection);
    }
}
