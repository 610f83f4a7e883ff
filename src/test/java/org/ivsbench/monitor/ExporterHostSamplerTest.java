package org.ivsbench.monitor;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * node_exporter and process-exporter pages, served over real HTTP with basic auth, turned into ProcSampler's
 * columns: expected values worked out by hand from the two pages, one virtual second apart.
 */
class ExporterHostSamplerTest {
    private static final String AUTH =
            "Basic " + Base64.getEncoder().encodeToString("prom:pw".getBytes(StandardCharsets.UTF_8));

    private final AtomicReference<String> nodePage = new AtomicReference<>();
    private final AtomicReference<String> processPage = new AtomicReference<>();
    private HttpServer server;

    private String serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        for (String path : new String[] {"/node", "/process"}) {
            server.createContext(path, exchange -> {
                String page = path.equals("/node") ? nodePage.get() : processPage.get();
                boolean ok = AUTH.equals(exchange.getRequestHeaders().getFirst("Authorization"));
                byte[] body = (ok ? page : "no").getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(ok ? 200 : 401, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
        }
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static String node(double user, double idle, double readBytes, double ioSeconds, double rx) {
        return "# TYPE node_cpu_seconds_total counter\n"
                + "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"} " + user / 2 + "\n"
                + "node_cpu_seconds_total{cpu=\"1\",mode=\"user\"} " + user / 2 + "\n"
                + "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} " + idle + "\n"
                + "node_cpu_seconds_total{cpu=\"0\",mode=\"system\"} 10\n"
                + "node_memory_MemTotal_bytes 1000\n"
                + "node_memory_MemFree_bytes 300\n"
                + "node_memory_Buffers_bytes 50\n"
                + "node_memory_Cached_bytes 100\n"
                + "node_memory_SReclaimable_bytes 50\n"
                + "node_memory_MemAvailable_bytes 500\n"
                + "node_disk_read_bytes_total{device=\"vda\"} " + readBytes + "\n"
                + "node_disk_io_time_seconds_total{device=\"vda\"} " + ioSeconds + "\n"
                + "node_disk_read_bytes_total{device=\"vda1\"} 7\n"
                + "node_disk_read_bytes_total{device=\"zram0\"} 7\n"
                + "node_disk_read_bytes_total{device=\"dm-0\"} " + readBytes + "\n"
                + "node_network_receive_bytes_total{device=\"lo\"} " + rx + "\n"
                + "node_network_transmit_bytes_total{device=\"lo\"} " + rx + "\n";
    }

    private static String process(double user, double system, double read) {
        return "namedprocess_namegroup_num_procs{groupname=\"mariadbd\"} 1\n"
                + "namedprocess_namegroup_cpu_seconds_total{groupname=\"mariadbd\",mode=\"user\"} " + user + "\n"
                + "namedprocess_namegroup_cpu_seconds_total{groupname=\"mariadbd\",mode=\"system\"} " + system + "\n"
                + "namedprocess_namegroup_cpu_seconds_total{groupname=\"java\",mode=\"user\"} 999\n"
                + "namedprocess_namegroup_memory_bytes{groupname=\"mariadbd\",memtype=\"resident\"} 4096\n"
                + "namedprocess_namegroup_memory_bytes{groupname=\"mariadbd\",memtype=\"virtual\"} 9999\n"
                + "namedprocess_namegroup_num_threads{groupname=\"mariadbd\"} 12\n"
                + "namedprocess_namegroup_read_bytes_total{groupname=\"mariadbd\"} " + read + "\n"
                + "namedprocess_namegroup_write_bytes_total{groupname=\"mariadbd\"} 0\n";
    }

    @Test
    void columnsUnitsAndRatesAreProcSamplers() throws Exception {
        String base = serve();
        AtomicLong nanos = new AtomicLong();
        ExporterHostSampler sampler = new ExporterHostSampler(
                new ExporterScraper(base + "/node", "prom", "pw", Duration.ofSeconds(5)),
                new ExporterScraper(base + "/process", "prom", "pw", Duration.ofSeconds(5)),
                "mariadbd",
                nanos::get);
        nodePage.set(node(100, 50, 0, 1, 0));
        processPage.set(process(1, 1, 0));
        Map<String, Double> first = sampler.sample();
        assertNull(first.get("os.cpu.usr_pct"), "the first sample is the baseline");
        assertNull(first.get("proc.cpu_pct"));
        assertEquals(4096.0, first.get("proc.rss_bytes"), "values need no baseline");

        // One second later: user +1.5 s (over two cpus), idle +0.5 s; vda read 4096 B, busy 0.25 s; lo 10 B.
        nanos.addAndGet(1_000_000_000L);
        nodePage.set(node(101.5, 50.5, 4096, 1.25, 10));
        processPage.set(process(1.5, 1.25, 8192));
        Map<String, Double> m = sampler.sample();
        assertEquals(75.0, m.get("os.cpu.usr_pct"));
        assertEquals(25.0, m.get("os.cpu.idle_pct"));
        assertEquals(0.0, m.get("os.cpu.sys_pct"));
        assertEquals(500.0, m.get("os.mem.used_bytes"), "total - free - (buffers + cached + sreclaimable)");
        assertEquals(200.0, m.get("os.mem.cached_bytes"));
        assertEquals(300.0, m.get("os.mem.free_bytes"));
        assertEquals(500.0, m.get("os.mem.available_bytes"));
        assertEquals(4096.0, m.get("os.disk.vda.read_bytes_ps"));
        assertEquals(250.0, m.get("os.disk.vda.io_ms_ps"), "seconds busy become ms per second");
        assertEquals(4096.0, m.get("os.disk.read_bytes_ps"), "dm-0 listed but not added to the total");
        assertEquals(4096.0, m.get("os.disk.dm-0.read_bytes_ps"));
        assertTrue(!m.containsKey("os.disk.vda1.read_bytes_ps") && !m.containsKey("os.disk.zram0.read_bytes_ps"));
        assertEquals(10.0, m.get("os.net.lo.rx_bytes_ps"));
        assertEquals(75.0, m.get("proc.cpu_pct"), "user + system of the mariadbd group, 100 = one core");
        assertEquals(12.0, m.get("proc.threads"));
        assertEquals(8192.0, m.get("proc.read_bytes_ps"));
        assertEquals(0.0, m.get("proc.write_bytes_ps"));
    }

    @Test
    void anExporterThatRefusesLeavesItsCellsEmptyNotZero() throws Exception {
        String base = serve();
        AtomicLong nanos = new AtomicLong();
        ExporterHostSampler sampler = new ExporterHostSampler(
                new ExporterScraper(base + "/node", "prom", "wrong", Duration.ofSeconds(5)),
                new ExporterScraper(base + "/process", "prom", "pw", Duration.ofSeconds(5)),
                "postgres",
                nanos::get);
        nodePage.set(node(100, 50, 0, 1, 0));
        processPage.set(process(1, 1, 0));
        sampler.sample();
        nanos.addAndGet(1_000_000_000L);
        Map<String, Double> m = sampler.sample();
        assertTrue(m.containsKey("os.cpu.usr_pct") && m.get("os.cpu.usr_pct") == null, "HTTP 401: empty: " + m);
        assertNull(m.get("os.disk.read_bytes_ps"));
        assertTrue(m.containsKey("proc.cpu_pct") && m.get("proc.cpu_pct") == null, "no postgres group: empty");
    }
}
