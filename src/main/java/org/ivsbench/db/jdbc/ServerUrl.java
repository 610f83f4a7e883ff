package org.ivsbench.db.jdbc;

import java.util.Optional;

/**
 * A server's JDBC URL taken apart where its database is: {@code jdbc:<scheme>://<hosts>[/<database>][?<options>]}.
 * One reading for every server dialect, for the config check of the database name and for the URL of a sibling
 * database.
 *
 * @param base everything before the database: {@code jdbc:<scheme>://<hosts>}
 * @param database the database, "" when the URL names none
 * @param options {@code ?<options>} as written, "" when there are none
 */
record ServerUrl(String base, String database, String options) {

    /** The URL's parts; empty when it has no {@code //} (not a server URL). */
    static Optional<ServerUrl> parse(String url) {
        int hosts = url.indexOf("//");
        if (hosts < 0) {
            return Optional.empty();
        }
        int query = url.indexOf('?', hosts + 2);
        String beforeQuery = query < 0 ? url : url.substring(0, query);
        String options = query < 0 ? "" : url.substring(query);
        int slash = beforeQuery.indexOf('/', hosts + 2);
        return slash < 0
                ? Optional.of(new ServerUrl(beforeQuery, "", options))
                : Optional.of(
                        new ServerUrl(beforeQuery.substring(0, slash), beforeQuery.substring(slash + 1), options));
    }

    /** The same server and options, another database ("" for none). */
    String withDatabase(String databaseName) {
        return base + "/" + databaseName + options;
    }

    /** {@code url} without its options (they may hold a password), for messages. */
    static String withoutOptions(String url) {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q);
    }
}
