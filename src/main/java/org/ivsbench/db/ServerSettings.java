package org.ivsbench.db;

import java.util.Map;

/**
 * A target's capability: every setting of the running server as the server shows it (MariaDB {@code SHOW GLOBAL
 * VARIABLES}, PostgreSQL {@code pg_settings}, Cassandra {@code system_views.settings}), for the monitor's record
 * of settings changed while a run goes on. Values that move by themselves (replication positions) are left out:
 * they are the server's state, not a setting anyone changed.
 */
public interface ServerSettings {

    /** Every setting by name, its value as text (null where the server shows none). */
    Map<String, String> current() throws TargetException;
}
