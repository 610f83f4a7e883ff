package org.ivsbench.db.jdbc;

import java.util.Collection;

import org.ivsbench.db.TableSpec;

/**
 * The SQL text of every statement shape, with validated and quoted identifiers. Statement shapes repeat
 * (one per table x field set), so sessions cache the prepared statements by this text.
 */
final class SqlStatements {
    private final Dialect dialect;

    SqlStatements(Dialect dialect) {
        this.dialect = dialect;
    }

    String q(String identifier) {
        return dialect.quote(identifier);
    }

    /** The table: the key column (NOT NULL, the primary key) and the fields, in the dialect's types. */
    String createTable(TableSpec table) {
        StringBuilder sql = new StringBuilder("CREATE TABLE ")
                .append(q(table.name()))
                .append(" (")
                .append(q(table.keyColumn()))
                .append(' ')
                .append(dialect.keyColumnType(table.keyType()))
                .append(" NOT NULL");
        for (String field : table.fields()) {
            sql.append(", ")
                    .append(q(field))
                    .append(' ')
                    .append(
                            table.boundedFields()
                                    ? "VARCHAR(" + table.maxFieldLength() + ")"
                                    : dialect.growingTextType());
        }
        return sql.append(", PRIMARY KEY (")
                .append(q(table.keyColumn()))
                .append("))")
                .append(dialect.tableOptions(table))
                .toString();
    }

    String select(String table, String key, Collection<String> fields, boolean lockRow) {
        return "SELECT " + columns(fields) + " FROM " + q(table) + " WHERE " + q(key) + " = ?"
                + (lockRow ? dialect.lockRowSuffix() : "");
    }

    String scan(String table, String key, Collection<String> fields) {
        return "SELECT " + columns(fields) + " FROM " + q(table) + " WHERE " + q(key) + " >= ? ORDER BY " + q(key)
                + " LIMIT ?";
    }

    String scanBetween(String table, String key, Collection<String> fields) {
        return "SELECT " + columns(fields) + " FROM " + q(table) + " WHERE " + q(key) + " >= ? AND " + q(key)
                + " <= ? ORDER BY " + q(key);
    }

    String scanAll(String table, String key, Collection<String> fields) {
        return "SELECT " + q(key) + ", " + columns(fields) + " FROM " + q(table) + " ORDER BY " + q(key);
    }

    String exists(String table, String key) {
        return "SELECT 1 FROM " + q(table) + " WHERE " + q(key) + " = ?";
    }

    String update(String table, String key, Collection<String> fields) {
        StringBuilder sql = new StringBuilder("UPDATE ").append(q(table)).append(" SET ");
        String sep = "";
        for (String field : fields) {
            sql.append(sep).append(q(field)).append(" = ?");
            sep = ", ";
        }
        return sql.append(" WHERE ").append(q(key)).append(" = ?").toString();
    }

    /** Parameters: suffix, key, suffix length, max length. The guard makes the cap a real skip. */
    String guardedAppend(String table, String key, String field) {
        String f = q(field);
        return "UPDATE " + q(table) + " SET " + f + " = " + dialect.appendExpression(f) + " WHERE " + q(key)
                + " = ? AND COALESCE(" + dialect.lengthFunction() + "(" + f + "), 0) + ? <= ?";
    }

    String insert(String table, String key, Collection<String> fields) {
        StringBuilder sql =
                new StringBuilder("INSERT INTO ").append(q(table)).append(" (").append(q(key));
        for (String field : fields) {
            sql.append(", ").append(q(field));
        }
        sql.append(") VALUES (?");
        sql.append(", ?".repeat(fields.size()));
        return sql.append(")").toString();
    }

    String delete(String table, String key) {
        return "DELETE FROM " + q(table) + " WHERE " + q(key) + " = ?";
    }

    /** Parameters: start key, end key (both in the range). */
    String deleteBetween(String table, String key) {
        return "DELETE FROM " + q(table) + " WHERE " + q(key) + " >= ? AND " + q(key) + " <= ?";
    }

    /** Parameters: start key, number of records. */
    String deleteRange(String table, String key) {
        return dialect.deleteRangeSql(q(table), q(key));
    }

    String count(String table) {
        return "SELECT COUNT(*) FROM " + q(table);
    }

    String drop(String table) {
        return "DROP TABLE IF EXISTS " + q(table);
    }

    private String columns(Collection<String> fields) {
        StringBuilder sql = new StringBuilder();
        String sep = "";
        for (String field : fields) {
            sql.append(sep).append(q(field));
            sep = ", ";
        }
        return sql.toString();
    }
}
