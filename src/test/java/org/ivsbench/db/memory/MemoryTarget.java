package org.ivsbench.db.memory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import org.ivsbench.db.DatabaseAdmin;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.TargetKind;

/**
 * One in-memory database: tables by name, each a sorted map guarded by its own lock. Databases live as long as
 * the JVM, so a target opened again (or made by {@link #withDatabase}) sees what an earlier one wrote.
 * Offers {@link DatabaseAdmin} and nothing else: no server facts, no counters.
 */
final class MemoryTarget implements Target, DatabaseAdmin {
    static final String PREFIX = "memory:";
    private static final TargetKind KIND = new MemoryKind();
    private static final Map<String, Map<String, Table>> DATABASES = new ConcurrentHashMap<>();

    private final String database;

    private MemoryTarget(String database) {
        this.database = database;
    }

    static MemoryTarget open(String url) throws TargetException {
        String name = url.substring(PREFIX.length());
        if (name.isEmpty()) {
            throw new TargetException("the url names no database: want " + PREFIX + "<database>");
        }
        DATABASES.computeIfAbsent(name, n -> new ConcurrentHashMap<>());
        return new MemoryTarget(name);
    }

    /** A table: its layout and its records by key, in key order. Callers hold the table's monitor. */
    static final class Table {
        final String keyColumn;
        final List<String> fields;
        final TreeMap<String, Map<String, String>> rows = new TreeMap<>();

        Table(String keyColumn, List<String> fields) {
            this.keyColumn = keyColumn;
            this.fields = List.copyOf(fields);
        }
    }

    Table table(String name) throws TargetException {
        Map<String, Table> tables = DATABASES.get(database);
        Table table = tables == null ? null : tables.get(name);
        if (table == null) {
            throw new TargetException("table " + name + " does not exist in database " + database);
        }
        return table;
    }

    @Override
    public TargetKind kind() {
        return KIND;
    }

    @Override
    public Session openSession() {
        return new MemorySession(this);
    }

    @Override
    public void createTable(TableSpec table) throws TargetException {
        tables().put(table.name(), new Table(table.keyColumn(), table.fields()));
    }

    @Override
    public void dropTable(String table) throws TargetException {
        tables().remove(table);
    }

    @Override
    public long countRecords(String table) throws TargetException {
        Table t = table(table);
        synchronized (t) {
            return t.rows.size();
        }
    }

    @Override
    public void forEachRecord(String table, Consumer<Record> consumer) throws TargetException {
        Table t = table(table);
        List<Record> copy = new ArrayList<>();
        synchronized (t) {
            for (Map.Entry<String, Map<String, String>> e : t.rows.entrySet()) {
                copy.add(new Record(e.getKey(), new LinkedHashMap<>(e.getValue())));
            }
        }
        copy.forEach(consumer);
    }

    @Override
    public Target withDatabase(String databaseName) throws TargetException {
        return open(PREFIX + databaseName);
    }

    @Override
    public void createDatabase(String databaseName, boolean dropFirst) {
        if (dropFirst) {
            DATABASES.remove(databaseName);
        }
        DATABASES.computeIfAbsent(databaseName, n -> new ConcurrentHashMap<>());
    }

    @Override
    public void dropDatabase(String databaseName) {
        DATABASES.remove(databaseName);
    }

    @Override
    public void close() {
        // Nothing is held per target: the data stays for the next one.
    }

    private Map<String, Table> tables() throws TargetException {
        Map<String, Table> tables = DATABASES.get(database);
        if (tables == null) {
            throw new TargetException("database " + database + " was dropped");
        }
        return tables;
    }
}
