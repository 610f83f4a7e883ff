package org.ivsbench.db;

import java.util.List;

/**
 * A key/value table: a string key column plus string fields that may grow to {@code maxFieldLength}
 * bytes. {@code engine} is the storage engine where the target has a choice (MariaDB: InnoDB | RocksDB),
 * null for the target's default.
 */
public record TableSpec(String name, String keyColumn, List<String> fields, long maxFieldLength, String engine) {
    public TableSpec {
        fields = List.copyOf(fields);
    }
}
