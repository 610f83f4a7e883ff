package org.ivsbench.monitor;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ExportersConfig;
import org.ivsbench.config.MonitorConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetKind;

/**
 * The resource monitor for one run, writing monitor.csv beside samples.csv. A monitor that cannot start is
 * reported and the run goes on without it: the benchmark's own figures do not depend on it.
 *
 * <p>Without an agent the monitor reads this host's /proc. When the database is elsewhere those rows describe
 * the client's host, not the database's: the run says so once on the console and marks the rows
 * {@code source=client} instead of {@code local}, so no one reads them as the database host's. With
 * {@code <monitor><exporters>} the server side comes from Prometheus exporters instead ({@code source=exporter}).
 * Beside monitor.csv, {@link SettingsWatch} records the server's settings that changed (setting-changes.csv).
 */
public final class RunMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RunMonitor.class);
    /** monitor.csv's source for in-process rows when the database is not on this host. */
    static final String CLIENT_HOST_SOURCE = "client";

    private static final Pattern ADDRESS_HOST = Pattern.compile("host=([^)]*)");
    private static final Pattern ADDRESS_PORT = Pattern.compile("\\(port=(\\d+)\\)");
    /** An experiment starts a monitor per phase folder: one warning per process is enough. */
    private static final AtomicBoolean WARNED_CLIENT_HOST = new AtomicBoolean();

    private final ResourceMonitor monitor;
    /** The process the proc.* columns sample (in-process sampling only), else null. */
    private final ProcessLocator server;
    /** setting-changes.csv, when the monitor runs and the server can show its settings; else null. */
    private SettingsWatch settings;

    private RunMonitor(ResourceMonitor monitor) {
        this(monitor, null);
    }

    private RunMonitor(ResourceMonitor monitor, ProcessLocator server) {
        this.monitor = monitor;
        this.server = server;
    }

    /** The server's settings watched beside a monitor that started (a watch that cannot start is only logged). */
    private RunMonitor watchSettings(Target target, MonitorConfig config, Path dir) {
        if (monitor != null) {
            try {
                settings = SettingsWatch.start(target, config.intervalMs(), dir).orElse(null);
            } catch (Exception e) {
                LOG.warn(
                        "monitor: the server's settings cannot be watched ({}); no {}",
                        e.getMessage(),
                        SettingsWatch.FILE);
            }
        }
        return this;
    }

    /**
     * The pid of the database server process whose figures fill the proc.* columns, when this host's /proc is
     * sampled and the process is found (for summary.json: which server the run measured); else empty.
     */
    public OptionalLong serverPid() {
        return monitor == null || server == null ? OptionalLong.empty() : server.locate();
    }

    public static RunMonitor start(BenchmarkConfig config, Target target, Path dir, IntSupplier currentPhase) {
        if (!config.monitor().enabled()) {
            return new RunMonitor(null);
        }
        TargetKind kind = target.kind();
        boolean clientHost =
                samplesClientHostOnly(config.monitor(), kind, config.target().url());
        if (clientHost && WARNED_CLIENT_HOST.compareAndSet(false, true)) {
            LOG.warn(
                    "monitor: the database ({}) is not on this host and no <monitor><agent> is set, so monitor.csv's"
                            + " os.* columns are this client's host, not the database's (rows marked source=client); run"
                            + " monitor-agent on the database host for its figures",
                    hosts(config.target().url()));
        }
        if (config.monitor().exporters() != null) {
            return startWithExporters(config, target, dir, currentPhase).watchSettings(target, config.monitor(), dir);
        }
        try {
            ProcessLocator server = serverProcess(config, kind);
            return new RunMonitor(
                            ResourceMonitor.start(
                                    config.monitor(),
                                    server,
                                    CounterSource.of(target),
                                    CounterSelection.defaults(kind),
                                    dir.resolve("monitor.csv"),
                                    currentPhase,
                                    clientHost ? CLIENT_HOST_SOURCE : ResourceMonitor.LOCAL_SOURCE),
                            clientHost || config.monitor().agent() != null ? null : server)
                    .watchSettings(target, config.monitor(), dir);
        } catch (Exception e) {
            LOG.warn("the resource monitor could not start ({}); the run goes on without monitor.csv", e.getMessage());
            return new RunMonitor(null);
        }
    }

    /** The server side from Prometheus exporters (docs/monitor-exporters.md); rows marked source=exporter. */
    private static RunMonitor startWithExporters(
            BenchmarkConfig config, Target target, Path dir, IntSupplier currentPhase) {
        MonitorConfig m = config.monitor();
        ExportersConfig exporters = m.exporters();
        TargetKind kind = target.kind();
        try {
            String group = m.processName() != null
                    ? m.processName()
                    : kind.serverProcess()
                            .map(TargetKind.ServerProcess::processName)
                            .orElse(null);
            if (exporters.process() == null) {
                LOG.warn("monitor: no process-exporter in monitor/exporters, so proc.* stays empty: CPU attribution"
                        + " to the database server is off");
            }
            CounterSource counters = ExporterSources.counters(
                    exporters, kind, CounterSource.of(target), config.target().url());
            return new RunMonitor(ResourceMonitor.start(
                    m,
                    ExporterSources.host(exporters, group),
                    null,
                    counters,
                    CounterSelection.defaults(kind),
                    dir.resolve("monitor.csv"),
                    currentPhase,
                    ExporterSources.SOURCE));
        } catch (Exception e) {
            LOG.warn("the resource monitor could not start ({}); the run goes on without monitor.csv", e.getMessage());
            return new RunMonitor(null);
        }
    }

    /**
     * True when the monitor would sample this host's /proc although the database runs on another: monitoring
     * on, no agent, and a URL that does not point here.
     */
    static boolean samplesClientHostOnly(MonitorConfig monitor, TargetKind kind, String url) {
        return monitor.enabled()
                && (monitor.agent() == null || monitor.agent().isBlank())
                && monitor.exporters() == null
                && !isLocal(kind, url);
    }

    /**
     * The database server's process for the proc.* columns: the configured pid file or process name; else, when
     * the database runs on this host, the process listening on the URL's port (the server the benchmark
     * really talks to, even with several of one name, e.g. an experiment's fresh instance beside the primary),
     * falling back to the server's usual process name (both from the kind). An embedded database has none.
     */
    static ProcessLocator serverProcess(BenchmarkConfig config, TargetKind kind) {
        MonitorConfig m = config.monitor();
        if (m.agent() != null
                || m.processName() != null
                || m.pidFile() != null
                || !isLocal(kind, config.target().url())) {
            return ProcessLocator.of(m.pidFile(), m.processName());
        }
        return kind.serverProcess()
                .map(p -> ProcessLocator.listeningOn(portOf(config.target().url(), p.defaultPort()), p.processName()))
                .orElseGet(ProcessLocator::none);
    }

    /** The first host's port in a URL ({@code //host:port}, {@code [::1]:port} or {@code (port=N)}), else the default. */
    static int portOf(String url, int defaultPort) {
        Matcher address = ADDRESS_PORT.matcher(url);
        if (address.find()) {
            return Integer.parseInt(address.group(1));
        }
        String authority = authority(url);
        if (authority == null) {
            return defaultPort;
        }
        String first = authority.split(",")[0];
        int colon = first.lastIndexOf(':');
        if (colon < 0 || first.lastIndexOf(']') > colon) {
            return defaultPort;
        }
        try {
            return Integer.parseInt(first.substring(colon + 1));
        } catch (NumberFormatException e) {
            return defaultPort;
        }
    }

    /**
     * Whether the URL's database is on this host: an embedded one always; a unix socket (MariaDB's localSocket or pipe
     * option, MongoDB's %2F-encoded socket path); otherwise every host named is localhost, 127.x or ::1 (an
     * empty host is the driver's default, localhost). Only the text is looked at, never DNS: this host's own
     * name or address counts as remote, which errs towards a warning rather than towards silence.
     */
    static boolean isLocal(TargetKind kind, String url) {
        if (kind.serverProcess().isEmpty()) {
            return true;
        }
        if (url == null) {
            return false;
        }
        String u = url.trim().toLowerCase(Locale.ROOT);
        if (u.contains("localsocket=") || u.contains("pipe=")) {
            return true;
        }
        List<String> hosts = hostsOf(u);
        if (hosts == null) {
            return false;
        }
        for (String host : hosts) {
            if (!isLocalHost(host)) {
                return false;
            }
        }
        return true;
    }

    /** The host names of a URL (lower case, ports and user info removed); empty = default host; null = none found. */
    private static List<String> hostsOf(String url) {
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return null;
        }
        String rest = url.substring(scheme + 3);
        List<String> hosts = new ArrayList<>();
        if (rest.startsWith("address=")) { // MariaDB's jdbc:mariadb://address=(host=h)(port=p),address=(...)/db
            Matcher m = ADDRESS_HOST.matcher(rest.substring(0, indexOfAny(rest, "/?")));
            while (m.find()) {
                hosts.add(m.group(1).trim());
            }
            return hosts.isEmpty() ? null : hosts;
        }
        String authority = authority(url);
        if (authority.isEmpty()) {
            return hosts;
        }
        for (String hostPort : authority.split(",")) {
            String h = hostPort.trim();
            if (h.startsWith("[")) {
                int close = h.indexOf(']');
                h = close < 0 ? h.substring(1) : h.substring(1, close);
            } else if (h.indexOf(':') == h.lastIndexOf(':') && h.indexOf(':') >= 0) {
                h = h.substring(0, h.indexOf(':'));
            }
            hosts.add(h);
        }
        return hosts;
    }

    /** The URL's hosts and ports (between "://" and the first '/', '?' or '#', user info removed); null without "://". */
    private static String authority(String url) {
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return null;
        }
        String rest = url.substring(scheme + 3);
        String authority = rest.substring(0, indexOfAny(rest, "/?#"));
        return authority.substring(authority.lastIndexOf('@') + 1);
    }

    private static boolean isLocalHost(String h) {
        return h.equals("localhost")
                || h.equals("localhost.localdomain")
                || h.startsWith("127.")
                || h.equals("::1")
                || h.equals("0:0:0:0:0:0:0:1")
                || h.startsWith("%2f")
                || h.endsWith(".sock"); // MongoDB: mongodb://%2Ftmp%2Fmongodb-27017.sock
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return s.length();
    }

    /** The URL's hosts for the warning: never the whole URL, whose query may hold a password. */
    private static String hosts(String url) {
        List<String> hosts = url == null ? null : hostsOf(url.trim().toLowerCase(Locale.ROOT));
        return hosts == null || hosts.isEmpty() ? "host unknown" : String.join(",", hosts);
    }

    @Override
    public void close() {
        if (settings != null) {
            settings.close();
        }
        if (monitor != null) {
            try {
                monitor.close();
            } catch (Exception e) {
                LOG.warn("closing the resource monitor failed: {}", e.getMessage());
            }
        }
    }
}
