package org.ivsbench.db.cassandra;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;

import org.ivsbench.db.TargetException;

/**
 * The prepared statements of one target, made once per table and shape and shared by its sessions (the driver's
 * prepared statements are thread-safe). Column names: the benchmark's {@code FIELD0} is the unquoted CQL name
 * {@code field0} (CQL folds unquoted names to lower case, and YCSB's Cassandra binding names its columns so), and
 * a column {@code field<digits>} is reported back as {@code FIELD<digits>}; other names pass as they are. The key
 * column is whatever the table's partition key is called (the benchmark creates {@code ycsb_key}; a table made by
 * YCSB's own tooling has {@code y_id}), learnt from the schema.
 */
final class Statements {
    private final CqlSession session;
    private final String keyspace;
    private final Map<String, String> keyColumns = new ConcurrentHashMap<>();
    private final Map<String, PreparedStatement> prepared = new ConcurrentHashMap<>();

    Statements(CqlSession session, String keyspace) {
        this.session = session;
        this.keyspace = keyspace;
    }

    /** Forgets what it knew of {@code table} (after it was dropped or created again). */
    void forget(String table) {
        keyColumns.remove(table);
        prepared.keySet().removeIf(k -> k.startsWith(table + "|"));
    }

    String qualified(String table) {
        return keyspace + "." + table;
    }

    static String column(String field) {
        return isNumbered(field, "FIELD") ? "field" + field.substring(5) : field;
    }

    static String field(String column) {
        return isNumbered(column, "field") ? "FIELD" + column.substring(5) : column;
    }

    String keyColumn(String table) throws TargetException {
        String known = keyColumns.get(table);
        if (known != null) {
            return known;
        }
        TableMetadata meta = session.getMetadata()
                .getKeyspace(keyspace)
                .flatMap(k -> k.getTable(table))
                .orElseThrow(() -> new TargetException("table " + qualified(table) + " does not exist"));
        List<ColumnMetadata> key = meta.getPartitionKey();
        if (key.size() != 1 || !meta.getClusteringColumns().isEmpty()) {
            throw new TargetException(
                    "table " + qualified(table) + " must have one partition key column and no" + " clustering columns");
        }
        String name = key.get(0).getName().asCql(true);
        keyColumns.put(table, name);
        return name;
    }

    PreparedStatement read(String table, List<String> fields) throws TargetException {
        String select = fields == null ? "*" : fields.isEmpty() ? keyColumn(table) : columns(fields, "");
        return prepare(
                table,
                "read " + select,
                "SELECT " + select + " FROM " + qualified(table) + " WHERE " + keyColumn(table) + " = ?");
    }

    /**
     * Rows from the start key's token on, in token order: with the default Murmur3 partitioner the keys of
     * different partitions have no order, so "the next n keys" is "the next n tokens", as in YCSB's binding.
     */
    PreparedStatement scan(String table, List<String> fields) throws TargetException {
        String key = keyColumn(table);
        String select = fields == null ? "*" : key + (fields.isEmpty() ? "" : ", " + columns(fields, ""));
        return prepare(
                table,
                "scan " + select,
                "SELECT " + select + " FROM " + qualified(table) + " WHERE token(" + key + ") >= token(?) LIMIT ?");
    }

    PreparedStatement update(String table, List<String> fields) throws TargetException {
        return prepare(
                table,
                "update " + fields,
                "UPDATE " + qualified(table) + " SET " + columns(fields, " = ?") + " WHERE " + keyColumn(table)
                        + " = ?");
    }

    /** {@code UPDATE .. SET field = ? WHERE key = ? IF field = ?}: applied only while the field holds what was read. */
    PreparedStatement conditionalUpdate(String table, String field) throws TargetException {
        String c = CqlIdentifier.fromCql(column(field)).asCql(true);
        return prepare(
                table,
                "cas " + c,
                "UPDATE " + qualified(table) + " SET " + c + " = ? WHERE " + keyColumn(table) + " = ? IF " + c
                        + " = ?");
    }

    PreparedStatement insert(String table, List<String> fields) throws TargetException {
        String marks = "?" + ", ?".repeat(fields.size());
        String names = fields.isEmpty() ? keyColumn(table) : keyColumn(table) + ", " + columns(fields, "");
        return prepare(
                table,
                "insert " + fields,
                "INSERT INTO " + qualified(table) + " (" + names + ") VALUES (" + marks + ")");
    }

    PreparedStatement delete(String table) throws TargetException {
        return prepare(table, "delete", "DELETE FROM " + qualified(table) + " WHERE " + keyColumn(table) + " = ?");
    }

    private PreparedStatement prepare(String table, String shape, String cql) {
        // One round trip per shape and table; afterwards the statement is the driver's by id.
        return prepared.computeIfAbsent(table + "|" + shape, k -> session.prepare(cql));
    }

    private static String columns(List<String> fields, String suffix) {
        List<String> parts = new ArrayList<>(fields.size());
        for (String f : fields) {
            parts.add(CqlIdentifier.fromCql(column(f)).asCql(true) + suffix);
        }
        return String.join(", ", parts);
    }

    private static boolean isNumbered(String name, String prefix) {
        if (name.length() <= prefix.length() || !name.startsWith(prefix)) {
            return false;
        }
        for (int i = prefix.length(); i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
