package org.ivsbench.config;

/**
 * {@code monitor/exporters}: the monitor takes its server-side samples from Prometheus exporters instead of
 * /proc and the target's connection (docs/monitor-exporters.md). Each URL is an exporter's metrics page
 * (http or https), or null when that exporter is not used: {@code node} (node_exporter: the os.* columns),
 * {@code process} (process-exporter: proc.*), {@code mysqld} (mysqld_exporter) or {@code postgres}
 * (postgres_exporter) for the db.* columns, at most one of the two. {@code user}/{@code password}: basic auth
 * for every exporter, or null. toString() never shows the password.
 */
public record ExportersConfig(
        String node, String process, String mysqld, String postgres, String user, String password) {

    /** The database exporter's URL (mysqld or postgres), or null. */
    public String database() {
        return mysqld != null ? mysqld : postgres;
    }

    @Override
    public String toString() {
        return "ExportersConfig[node=" + node + ", process=" + process + ", mysqld=" + mysqld + ", postgres=" + postgres
                + ", user=" + user + ", password=" + (password == null ? "null" : "*****") + "]";
    }
}
