package org.ivsbench.db.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.ivsbench.db.TargetException;

/**
 * A server activity snapshot read part by part over one connection of its own: a part the server refuses (a
 * privilege, a plugin, a view it lacks) becomes a note {@code <part>Note} saying why, rather than failing the
 * whole snapshot. Only failing to connect fails it.
 */
final class ActivityParts {
    /** Reads the parts of one snapshot. */
    @FunctionalInterface
    interface Reader {
        void read(ActivityParts parts) throws SQLException;
    }

    /** One part's value. */
    @FunctionalInterface
    interface Part {
        Object read() throws SQLException;
    }

    /** One row of a part, or null to leave the row out. */
    @FunctionalInterface
    interface Row {
        Map<String, Object> read(ResultSet rs) throws SQLException;
    }

    private final Statement statement;
    private final Map<String, Object> snapshot = new LinkedHashMap<>();

    private ActivityParts(Statement statement) {
        this.statement = statement;
    }

    /** Connects, lets {@code reader} add the parts, and gives the snapshot. */
    static Map<String, Object> take(JdbcTarget target, Reader reader) throws TargetException {
        try (Connection c = target.connect();
                Statement st = c.createStatement()) {
            ActivityParts parts = new ActivityParts(st);
            reader.read(parts);
            return parts.snapshot;
        } catch (SQLException e) {
            throw new TargetException("server activity snapshot failed: " + e.getMessage(), e, false);
        }
    }

    /** The snapshot's statement, for queries of the reader's own. */
    Statement statement() {
        return statement;
    }

    /** Puts part {@code name}; when it fails, {@code <name>Note}: {@code note} of the server's message. */
    void partOrNote(String name, Part part, UnaryOperator<String> note) {
        try {
            snapshot.put(name, part.read());
        } catch (SQLException e) {
            snapshot.put(name + "Note", note.apply(e.getMessage()));
        }
    }

    /** Every row {@code sql} gives, as {@code row} reads it. */
    List<Map<String, Object>> rows(String sql, Row row) throws SQLException {
        List<Map<String, Object>> rows = new ArrayList<>();
        try (ResultSet rs = statement.executeQuery(sql)) {
            while (rs.next()) {
                Map<String, Object> read = row.read(rs);
                if (read != null) {
                    rows.add(read);
                }
            }
        }
        return rows;
    }
}
