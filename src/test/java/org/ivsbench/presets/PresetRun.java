package org.ivsbench.presets;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.ivsbench.faults.CliProcess;
import org.ivsbench.testsupport.FreePorts;
import org.ivsbench.testsupport.SummaryTotals;
import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs one shipped config as its header tells a user to, from the project root (the test JVM's working directory),
 * through the jar in its own JVM, with {@code --shrink}, from a copy under the test's temporary folder (a relative
 * SQLite database file goes there too: the run writes nothing into the source tree). Only the primary {@code <url>}
 * is pointed at the test's server (host, port and database; a sample's URL options are kept) and any
 * {@code <monitor><exporters>} at the tests' private exporters, the {@code passwordEnv} variable it names is set, and
 * a {@code <fresh>} instance's port (in its command and its url together) is a free one so that runs in other
 * checkouts cannot collide. The expected sizes are read from the file with plain patterns and capped here, by
 * the numbers config/README.md documents, not by the code under test.
 */
final class PresetRun {
    static final long RECORDS = 100;
    static final long COUNT = 200;
    /**
     * The runs' JVM options: a heap bound, and the client compiler only (a run of seconds spends more CPU on C2
     * compiling than it gains; about a third less wall time per run here). What the jar does is unchanged.
     */
    static final List<String> JVM = List.of("-Xmx512m", "-XX:TieredStopAtLevel=1");

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A relative SQLite database file in a {@code <url>}. */
    private static final Pattern SQLITE_FILE = Pattern.compile("(<url>\\s*jdbc:sqlite:)(?![/:]|file:)(?=[\\w.])");

    private static final List<String> TABLE = new ArrayList<>();

    private PresetRun() {}

    /** The rows printed at the end of each class: file, server, shrunk size, exit code. */
    static synchronized void row(String file, String server, String size, int code) {
        TABLE.add(String.format(Locale.ROOT, "| %-66s | %-10s | %-50s | %4d |", file, server, size, code));
    }

    static synchronized void printTable(String title) {
        System.out.println("Shipped configs run with --shrink (" + title + "):");
        System.out.println(
                String.format(Locale.ROOT, "| %-66s | %-10s | %-50s | %4s |", "file", "server", "shrunk size", "exit"));
        TABLE.forEach(System.out::println);
        TABLE.clear();
    }

    /** Every XML file under {@code dir} whose {@code <type>} is one of {@code types}, sorted. */
    static Stream<String> files(String dir, Set<String> types) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(Path.of(dir))) {
            for (Path p : s.filter(f -> f.toString().endsWith(".xml")).sorted().toList()) {
                if (types.contains(type(Files.readString(p)))) {
                    out.add(p.toString());
                }
            }
        }
        return out.stream();
    }

    static String type(String xml) {
        Matcher m = Pattern.compile("<type>\\s*(\\w+)\\s*</type>").matcher(xml);
        return m.find() ? m.group(1).toUpperCase(Locale.ROOT) : "";
    }

    /** What the run left behind. */
    record Ran(String file, int code, String stdout, String stderr, Path results) {}

    /**
     * Runs {@code file} with {@code benchmark}; {@code url} replaces the primary's url (null: the file as it is).
     * {@code password} goes into the variable named by passwordEnv.
     */
    static Ran run(String file, String benchmark, String url, String password, Path tmp) throws Exception {
        String xml = Files.readString(Path.of(file), StandardCharsets.UTF_8);
        Map<String, String> env = new HashMap<>();
        if (url != null) {
            xml = pointAt(xml, url);
        }
        String config = copy(file, xml, tmp).toString();
        Matcher pe =
                Pattern.compile("<passwordEnv>\\s*(\\w+)\\s*</passwordEnv>").matcher(xml);
        if (pe.find()) {
            env.put(pe.group(1), password);
        }
        Path results = Files.createTempDirectory(tmp, "results");
        CliProcess p = CliProcess.start(
                tmp,
                env,
                JVM,
                "-b",
                benchmark,
                "-c",
                config,
                "--create=true",
                "--load=true",
                "--execute=true",
                "--shrink",
                "-d",
                results.toString());
        int code = p.waitFor(600);
        return new Ran(file, code, p.stdout(), p.stderr(), results);
    }

    /**
     * {@code xml} (the shipped {@code file}, perhaps pointed elsewhere) as a file of the same name in a new folder
     * under {@code tmp}, so that a run never writes into the source tree: a relative SQLite database file (relative
     * to the working directory, the project root) is moved under that folder too. Paths that a config resolves
     * against its own folder would now resolve against the copy's: no shipped config names one (a run would fail
     * on the missing file, not pass).
     */
    static Path copy(String file, String xml, Path tmp) throws IOException {
        Path dir = Files.createTempDirectory(tmp, "config");
        String moved = SQLITE_FILE.matcher(xml).replaceAll("$1" + Matcher.quoteReplacement(dir + "/"));
        return Files.writeString(dir.resolve(Path.of(file).getFileName()), moved);
    }

    /**
     * The primary's url pointed at {@code url}'s host, port and database (the file's own url options stay); a fresh
     * instance's port moved to a free one in its command and url together.
     */
    static String pointAt(String xml, String url) throws IOException {
        Matcher target = Pattern.compile("^(\\w+:(?:\\w+:)?//)([^/]+)(/[^?]*)").matcher(url);
        assertTrue(target.find(), url);
        String authorityAndDb = target.group(2) + target.group(3);
        Matcher m = Pattern.compile("(<parameters>.*?<url>\\s*\\w+:(?:\\w+:)?//)([^/?<]+/[^?<]*)", Pattern.DOTALL)
                .matcher(xml);
        assertTrue(m.find(), "a primary <url>");
        String out = xml.substring(0, m.start(2)) + authorityAndDb + xml.substring(m.end(2));
        out = pointExportersAt(out);
        Matcher fresh = Pattern.compile("_BASE_PORT=(\\d+)").matcher(out);
        if (fresh.find()) {
            String old = fresh.group(1);
            int port = FreePorts.belowEphemeral();
            out = out.replace("_BASE_PORT=" + old, "_BASE_PORT=" + port).replace(":" + old + "/", ":" + port + "/");
        }
        return out;
    }

    /** Each exporter a {@code <monitor><exporters>} names pointed at the tests' private one of its kind. */
    static String pointExportersAt(String xml) {
        Matcher section =
                Pattern.compile("<exporters>(.*?)</exporters>", Pattern.DOTALL).matcher(xml);
        if (!section.find()) {
            return xml;
        }
        String body = section.group(1);
        for (String kind : EXPORTERS) {
            body = body.replaceAll(
                    "<" + kind + ">[^<]*</" + kind + ">",
                    Matcher.quoteReplacement("<" + kind + ">" + TestServers.exporterUrl(kind) + "</" + kind + ">"));
        }
        return xml.substring(0, section.start(1)) + body + xml.substring(section.end(1));
    }

    private static final List<String> EXPORTERS = List.of("node", "process", "mysqld", "postgres");

    /** The header's own command that stops the fresh instance ("Stop it afterwards with ..."), run as written. */
    static void stopFreshInstance(String file) throws Exception {
        String xml = Files.readString(Path.of(file));
        Matcher m =
                Pattern.compile("(IVS_STATE_DIR=\\S+ scripts/\\w+\\.sh stop)").matcher(xml);
        if (!m.find()) {
            return;
        }
        Process p = new ProcessBuilder("sh", "-c", m.group(1))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), m.group(1));
        assertEquals(0, p.exitValue(), m.group(1));
    }

    /** min(cap, the number in the first {@code <name>N</name>} inside {@code <section>}, or in the file). */
    static long capped(String xml, String section, String name, long whenAbsent, long cap) {
        String scope = xml;
        if (section != null) {
            Matcher s = Pattern.compile("<" + section + ">(.*?)</" + section + ">", Pattern.DOTALL)
                    .matcher(xml);
            if (!s.find()) {
                return Math.min(whenAbsent, cap);
            }
            scope = s.group(1);
        }
        Matcher m =
                Pattern.compile("<" + name + ">\\s*(\\d+)\\s*</" + name + ">").matcher(withoutComments(scope));
        return Math.min(m.find() ? Long.parseLong(m.group(1)) : whenAbsent, cap);
    }

    static String withoutComments(String xml) {
        return xml.replaceAll("(?s)<!--.*?-->", "");
    }

    /** Checks the run's exit code, its --shrink line and that every results folder records the shrink. */
    static void checkShrunkRun(Ran ran) throws IOException {
        assertEquals(0, ran.code(), ran.file() + "\nstdout:\n" + ran.stdout() + "\nstderr:\n" + ran.stderr());
        assertTrue(ran.stdout().contains("--shrink: "), ran.stdout());
        List<Path> envs = find(ran.results(), "environment.json");
        assertTrue(!envs.isEmpty(), "no environment.json in " + ran.results());
        for (Path e : envs) {
            assertTrue(JSON.readTree(e.toFile()).has("shrunk"), e + " records no shrink");
        }
    }

    static List<Path> find(Path dir, String name) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().equals(name))
                    .sorted()
                    .toList();
        }
    }

    /**
     * A run whose monitor read exporters: every monitor.csv row is {@code source=exporter}, the host's CPU modes add up
     * to 100 %, the server process has RSS and threads, and the server's Com_select / Com_update deltas summed over
     * the run are at least the statements the run itself sent (global counters: other sessions only add); returns a
     * short description.
     */
    static String checkExporterMonitor(Ran ran) throws IOException {
        List<Path> csvs = find(ran.results(), "monitor.csv");
        assertTrue(!csvs.isEmpty(), "no monitor.csv in " + ran.results() + "\n" + ran.stdout() + ran.stderr());
        long reads = 0;
        long extends_ = 0;
        long extendsOk = 0;
        for (Path s : find(ran.results(), "summary.json")) {
            for (Map.Entry<String, Long> e : SummaryTotals.of(s).entrySet()) {
                String[] k = e.getKey().split("\\|");
                if (k[0].equals("ops") && k[2].equals("ReadRecord")) {
                    reads += e.getValue();
                } else if (k[0].equals("ops") && k[2].equals("ExtendRecord")) {
                    extends_ += e.getValue();
                    extendsOk += k[3].equals("ok") ? e.getValue() : 0;
                }
            }
        }
        int rows = 0;
        double selects = 0;
        double updates = 0;
        double maxRss = 0;
        for (Path csv : csvs) {
            List<String> lines = Files.readAllLines(csv);
            List<String> head = List.of(lines.get(0).split(",", -1));
            for (String column : List.of(
                    "os.cpu.usr_pct",
                    "os.mem.used_bytes",
                    "proc.rss_bytes",
                    "proc.threads",
                    "db.Com_select",
                    "db.Com_update",
                    "db.Innodb_buffer_pool_pages_total")) {
                assertTrue(head.contains(column), csv + " has no " + column + ": " + head);
            }
            for (String line : lines.subList(1, lines.size())) {
                List<String> row = List.of(line.split(",", -1));
                assertEquals("exporter", row.get(head.indexOf("source")), line);
                rows++;
                double cpu = 0;
                for (String mode : List.of("usr", "sys", "iowait", "steal", "idle")) {
                    cpu += cell(row, head, "os.cpu." + mode + "_pct");
                }
                assertTrue(Double.isNaN(cpu) || Math.abs(cpu - 100) < 0.01, "CPU modes add up to 100 %: " + line);
                double rss = cell(row, head, "proc.rss_bytes");
                assertTrue(rss > 0 && cell(row, head, "proc.threads") >= 1, "mariadbd's RSS and threads: " + line);
                maxRss = Math.max(maxRss, rss);
                assertTrue(cell(row, head, "db.Innodb_buffer_pool_pages_total") > 0, line);
                assertTrue(cell(row, head, "os.mem.used_bytes") > 0, line);
                selects += zeroIfEmpty(cell(row, head, "db.Com_select"));
                updates += zeroIfEmpty(cell(row, head, "db.Com_update"));
            }
        }
        assertTrue(rows > 0, "monitor rows: " + csvs);
        assertTrue(reads + extends_ > 0, "the run's operations");
        assertTrue(
                selects >= reads + extends_,
                "Com_select " + selects + " >= reads + client extends " + (reads + extends_));
        assertTrue(updates >= extendsOk, "Com_update " + updates + " >= extends that wrote " + extendsOk);
        return rows + " exporter rows, RSS " + Math.round(maxRss / 1048576) + " MB";
    }

    /** A cell as a number: NaN when empty (a rate's first row). */
    private static double cell(List<String> row, List<String> head, String column) {
        String v = row.get(head.indexOf(column));
        return v.isEmpty() ? Double.NaN : Double.parseDouble(v);
    }

    private static double zeroIfEmpty(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    /** The records the run's --load printed. */
    static long loaded(Ran ran) {
        Matcher m = Pattern.compile("Loaded ([\\d,]+) records").matcher(ran.stdout());
        assertTrue(m.find(), ran.stdout());
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    /**
     * An experiment preset: every epochs.csv (one per trial) has one row per mode of epoch 1; each row ran
     * {@code run} operations, the main-run's extend phase {@code extend} and its table held {@code records}.
     */
    static String checkExperiment(Ran ran) throws IOException {
        String xml = withoutComments(Files.readString(Path.of(ran.file())));
        long records = capped(xml, null, "recordcount", 1000, RECORDS);
        long extend = capped(xml, "extend", "count", 0, COUNT);
        long run = capped(xml, "run", "count", 0, COUNT);
        Matcher modesM = Pattern.compile("<modes>([^<]+)</modes>").matcher(xml);
        assertTrue(modesM.find());
        List<String> modes = List.of(modesM.group(1).strip().split("\\s*,\\s*"));
        long trials = capped(xml, "experiment", "trials", 1, 2);
        List<Path> csvs = find(ran.results(), "epochs.csv");
        assertEquals(trials, csvs.size(), "one epochs.csv per trial: " + csvs);
        assertEquals(records, loaded(ran), "records loaded");
        for (Path csv : csvs) {
            List<String> lines = Files.readAllLines(csv);
            List<String> head = List.of(lines.get(0).split(",", -1));
            assertEquals(modes.size(), lines.size() - 1, csv + ": one row per mode of epoch 1\n" + lines);
            for (String line : lines.subList(1, lines.size())) {
                List<String> row = List.of(line.split(",", -1));
                String mode = row.get(head.indexOf("mode"));
                assertEquals("1", row.get(head.indexOf("epoch")), line);
                assertEquals(Long.toString(run), row.get(head.indexOf("run_ops")), csv + " " + mode + " run_ops");
                if (mode.equals("main")) {
                    assertEquals(Long.toString(extend), row.get(head.indexOf("extend_ops")), mode + " extend_ops");
                    assertEquals(Long.toString(records), row.get(head.indexOf("records")), mode + " records");
                }
            }
        }
        return records + " rec, 1 epoch x " + modes.size() + " modes, " + extend + " ext/" + run + " run"
                + (trials > 1 ? ", " + trials + " trials" : "");
    }

    /**
     * A {@code <works>} config: every count phase ran exactly min(count, 200) measured operations; the load loaded
     * min(records, 100).
     */
    static String checkPhases(Ran ran, long expectedRecords) throws IOException {
        String xml = withoutComments(Files.readString(Path.of(ran.file())));
        Matcher works = Pattern.compile("<work>(.*?)</work>", Pattern.DOTALL).matcher(xml);
        List<Long> counts = new ArrayList<>();
        while (works.find()) {
            Matcher c = Pattern.compile("<count>\\s*(\\d+)\\s*</count>").matcher(works.group(1));
            counts.add(c.find() ? Math.min(Long.parseLong(c.group(1)), COUNT) : -1);
        }
        assertEquals(expectedRecords, loaded(ran), "records loaded");
        List<Path> summaries = find(ran.results(), "summary.json");
        assertTrue(!summaries.isEmpty(), "no summary.json");
        for (Path s : summaries) {
            JsonNode phases = JSON.readTree(s.toFile()).get("phases");
            assertEquals(counts.size(), phases.size(), s.toString());
            for (int i = 0; i < counts.size(); i++) {
                if (counts.get(i) > 0) {
                    assertEquals(
                            counts.get(i).longValue(),
                            phases.get(i).get("operations").asLong(),
                            s + " phase " + i);
                } else {
                    assertTrue(phases.get(i).get("measuredSeconds").asDouble() <= 2.5, s + " phase " + i);
                }
            }
        }
        Set<String> sizes = new LinkedHashSet<>();
        counts.forEach(c -> sizes.add(c > 0 ? c + " ops" : "<= 2 s"));
        return expectedRecords + " rec, " + counts.size() + " phases (" + String.join(", ", sizes) + ")"
                + (summaries.size() > 1 ? ", " + summaries.size() + " runs" : "");
    }
}
