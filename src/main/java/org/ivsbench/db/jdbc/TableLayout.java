package org.ivsbench.db.jdbc;

import java.util.List;

/**
 * The key column and the field columns of a table. The session API names only the table, so the target
 * learns its layout from createTable or, in a process that did not create it, from the catalog.
 */
record TableLayout(String keyColumn, List<String> fields) {
    TableLayout {
        fields = List.copyOf(fields);
    }
}
