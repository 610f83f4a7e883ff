package org.ivsbench.db;

import java.util.List;

/**
 * A key/value table: a key column plus string fields that may grow to {@code maxFieldLength}
 * bytes. {@code engine} is the storage engine where the target has a choice (MariaDB: InnoDB | RocksDB),
 * null for the target's default.
 *
 * <p>{@code keyType} INTEGER declares the key column as an integer (keys are still passed as decimal strings);
 * {@code boundedFields} declares the fields as VARCHAR({@code maxFieldLength}) instead of the large text type
 * that lets values grow. Both exist so a benchmark can create a table exactly as another tool's DDL does
 * (BenchBase's YCSB: {@code ycsb_key int, field1..field10 varchar(100)}); a target without such types ignores them.
 */
public record TableSpec(
        String name,
        String keyColumn,
        List<String> fields,
        long maxFieldLength,
        String engine,
        KeyType keyType,
        boolean boundedFields) {

    public enum KeyType {
        STRING,
        INTEGER
    }

    public TableSpec {
        fields = List.copyOf(fields);
        keyType = keyType == null ? KeyType.STRING : keyType;
    }

    /** A string-keyed table whose fields may grow (the original shape). */
    public TableSpec(String name, String keyColumn, List<String> fields, long maxFieldLength, String engine) {
        this(name, keyColumn, fields, maxFieldLength, engine, KeyType.STRING, false);
    }
}
