package org.ivsbench.db.jdbc;

import java.util.regex.Pattern;

import org.ivsbench.db.TargetException;

/**
 * Table and column names come from configuration files and end up inside SQL text (identifiers cannot be
 * bound as parameters), so every name is checked against a conservative pattern before use. The pattern
 * is stricter than either SQL dialect needs: a name that passes is valid, unreserved-by-quoting and
 * portable between MariaDB (64-character limit) and SQLite.
 */
final class Identifiers {
    private static final Pattern VALID = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

    private Identifiers() {}

    static String require(String what, String name) throws TargetException {
        if (name == null || !VALID.matcher(name).matches()) {
            throw new TargetException(what + " name '" + name + "' is not a valid identifier: use letters, digits"
                    + " and '_', not starting with a digit, at most 64 characters");
        }
        return name;
    }

    static boolean isValid(String name) {
        return name != null && VALID.matcher(name).matches();
    }
}
