package org.ivsbench.db.cassandra;

import java.util.Map;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.testsupport.TestServers;

/** The private Cassandra started by scripts/cassandra.sh (scripts/test.sh passes -Divs.cassandra.url). */
public final class CassandraFixture {
    private CassandraFixture() {}

    public static String url() {
        String value = System.getProperty("ivs.cassandra.url");
        if (value == null || value.isBlank()) {
            value = System.getenv("IVS_CASSANDRA_URL");
        }
        if (value == null || value.isBlank()) {
            TestServers.missing("ivs.cassandra.url / IVS_CASSANDRA_URL is not set: run the tests with scripts/test.sh,"
                    + " or scripts/cassandra.sh start && eval \"$(scripts/cassandra.sh env)\"");
        }
        return value;
    }

    /** The server's pid file, to kill it in fault tests. */
    public static String pidFile() {
        String value = System.getenv("IVS_CASSANDRA_PIDFILE");
        if (value == null || value.isBlank()) {
            TestServers.missing("IVS_CASSANDRA_PIDFILE is not set: eval \"$(scripts/cassandra.sh env)\"");
        }
        return value;
    }

    public static TargetConfig config(Map<String, String> options) {
        return new TargetConfig("CASSANDRA", null, url(), null, null, null, false, options);
    }

    /** The {@code <parameters>} children that connect a benchmark config to the private Cassandra. */
    public static String connection() {
        return "<type>CASSANDRA</type><url>" + url().replace("&", "&amp;") + "</url>";
    }
}
