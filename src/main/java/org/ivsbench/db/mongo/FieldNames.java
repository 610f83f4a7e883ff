package org.ivsbench.db.mongo;

/**
 * Field names between the benchmark and the documents. The ycsbivs module names fields {@code FIELD0..}
 * (the SQL column names); YCSB's MongoDB binding stores {@code field0..}. With lowercasing on, names of
 * exactly the form {@code FIELD<digits>} are stored as {@code field<digits>} and {@code field<digits>} is
 * reported back as {@code FIELD<digits>}, so documents look like YCSB's and the module sees its own names.
 * Any other name passes through unchanged in both directions. The record key is always {@code _id}.
 */
final class FieldNames {
    static final String ID = "_id";

    private final boolean lowercase;

    FieldNames(boolean lowercase) {
        this.lowercase = lowercase;
    }

    String toDocument(String field) {
        return lowercase && isNumbered(field, "FIELD") ? "field" + field.substring(5) : field;
    }

    String fromDocument(String name) {
        return lowercase && isNumbered(name, "field") ? "FIELD" + name.substring(5) : name;
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
