package org.ivsbench.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.ivsbench.testsupport.TestServers;

/**
 * Turns a documented command line into the one the doc test runs. Each rule keeps the command as written and
 * only fills in what the page leaves to the reader (its rules are also listed in docs/trust.md):
 *
 * <ol>
 *   <li>The reader's own files: {@code c.xml}, {@code sqlite.xml}/{@code run.xml} (the SQLite sample),
 *       {@code mariadb.xml}/{@code other-db.xml} (the MariaDB sample), the synopsis {@code [--timing
 *       recorded|fast] [--terminals N] [-d DIR]} (one choice of each), {@code .cache/bench/rate-noop.xml}
 *       (written by scripts/bench/rate-accuracy.sh, which is not run: a small no-op config of the same shape).
 *   <li>Outputs go under {@value #SCRATCH} (emptied when the test starts) instead of the project root:
 *       {@code results/}, {@code /tmp/}, {@code sweep-report}, {@code run.trace.gz}. A benchbase.jar command
 *       that writes results without {@code -d} gets {@code -d} {@value #RESULTS}; the analyzer's compare and
 *       sweep without {@code -o} (their default is {@code ./compare-report}, {@code ./sweep-report}) get one.
 *       {@code scripts/demo.sh} gets {@code IVS_DEMO_RESULTS} and {@code scripts/repro.sh} {@code --out} under it.
 *   <li>Results placeholders ({@code results/tenants_<stamp>}, {@code results/ycsbivs_...}, {@code results/a
 *       results/b}, {@code results/ycsbivs-sweep_A}, ...) are the folders the earlier commands printed, newest
 *       first, of the kind the name says (a run, a sweep, tenants); the two of a pair are two distinct folders
 *       (fails when earlier commands printed only one).
 *   <li>A shipped config whose {@code <url>} names a server (MariaDB, PostgreSQL, MongoDB, Cassandra) is
 *       copied with the host and port of the suite's private server (what its header tells a reader to do);
 *       one whose {@code <url>} is a relative SQLite file, with that file under {@value #SCRATCH} (the demo's
 *       config too, through {@code IVS_DEMO_CONFIG}).
 *   <li>Long benchbase.jar runs ({@code --load} or {@code --execute}, {@code scripts/demo.sh} and {@code scripts/repro.sh}, which
 *       passes options on) get {@code --shrink}, when {@link #shrink} is on.
 * </ol>
 */
final class DocFixtures {
    static final String SCRATCH = "target/doc-commands";
    static final String RESULTS = SCRATCH + "/results/";
    static final String JAR = "java -jar target/benchbase.jar";
    static final String SHRINK = "--shrink";

    /** The reader's own files, as the pages name them, and the fixture each stands for. */
    private static final Map<String, String> READER_FILES = new LinkedHashMap<>();

    static {
        READER_FILES.put(
                "[--timing recorded|fast] [--terminals N] [-d DIR]", "--timing fast --terminals 1 -d results/");
        READER_FILES.put("-c .cache/bench/rate-noop.xml", "-c src/test/resources/doc-commands/rate-noop.xml");
        READER_FILES.put("-c c.xml", "-c src/test/resources/doc-commands/c.xml");
        READER_FILES.put("-c sqlite.xml", "-c config/sqlite/ycsbivs_config.xml");
        READER_FILES.put("-c run.xml", "-c config/sqlite/ycsbivs_config.xml");
        READER_FILES.put("-c mariadb.xml", "-c config/mariadb/ycsbivs_config.xml");
        READER_FILES.put("-c other-db.xml", "-c config/mariadb/ycsbivs_config.xml");
    }

    /** Server kinds: the URL scheme in a config, the variable holding the suite's server URL. */
    private record Server(String name, Pattern url, String variable) {}

    private static final List<Server> SERVERS = List.of(
            new Server("MariaDB", Pattern.compile("jdbc:(mariadb|mysql)://[^/<]+/"), "IVS_MARIADB_URL"),
            new Server("PostgreSQL", Pattern.compile("jdbc:postgresql://[^/<]+/"), "IVS_POSTGRES_URL"),
            new Server("MongoDB", Pattern.compile("mongodb://[^/<]+/"), "IVS_MONGO_URL"),
            new Server("Cassandra", Pattern.compile("cassandra://[^/<]+/"), "IVS_CASSANDRA_URL"));

    /** A relative SQLite database file (relative to the working directory, the project root). */
    private static final Pattern SQLITE_FILE = Pattern.compile("(<url>\\s*jdbc:sqlite:)(?![/:]|file:)(?=[\\w.])");
    /** The demo's default config, as scripts/demo.sh names it. */
    private static final Pattern DEMO_CONFIG = Pattern.compile("IVS_DEMO_CONFIG:-([^}\\s]+)}");

    static final String DEMO = "scripts/demo.sh";
    static final String REPRO = "scripts/repro.sh ";

    private static final Pattern ANALYZER_REPORTS = Pattern.compile("-m ivs_analyzer (compare|sweep) ");
    private static final Pattern CONFIG = Pattern.compile("(?<![\\w/.-])config/[\\w./-]+\\.xml");

    private final Path root;
    private final Map<String, String> environment;
    private final boolean shrink;
    /** Results folders (names under {@value #RESULTS}) the commands printed, the latest mention last. */
    private final List<String> printed = new ArrayList<>();

    DocFixtures(Path root, Map<String, String> environment, boolean shrink) throws IOException {
        this.root = root;
        this.environment = environment;
        this.shrink = shrink;
        deleteTree(root.resolve(SCRATCH));
        Files.createDirectories(root.resolve(RESULTS));
        Files.createDirectories(root.resolve(SCRATCH).resolve("tmp"));
    }

    void printed(String folder) {
        printed.remove(folder);
        printed.add(folder);
    }

    /** The command to run for a documented one. */
    String prepare(String documented) throws IOException {
        String s = documented;
        for (Map.Entry<String, String> e : READER_FILES.entrySet()) {
            s = s.replace(e.getKey(), e.getValue());
        }
        s = s.replaceAll("(?<=^|[\\s=:'\"])results/", RESULTS)
                .replaceAll("(?<=^|[\\s>:])/tmp/", SCRATCH + "/tmp/")
                .replaceAll("(?<=\\s)sweep-report(?=\\s|$)", SCRATCH + "/sweep-report")
                .replaceAll("(?<=\\s)run\\.trace\\.gz(?=\\s|$)", SCRATCH + "/run.trace.gz");
        s = fillResults(s);
        if (s.startsWith(JAR + " ")) {
            s = benchbase(s);
        }
        Matcher analyzer = ANALYZER_REPORTS.matcher(s);
        if (analyzer.find() && !s.contains(" -o ")) {
            s = s + " -o " + SCRATCH + "/" + analyzer.group(1) + "-report"; // its default is ./<kind>-report
        }
        if (s.startsWith(REPRO) && !s.contains(" --out ")) {
            s = s + " --out " + SCRATCH + "/repro"; // its default is results/repro/<setting>
        }
        if (shrink && (s.equals(DEMO) || s.startsWith(REPRO))) {
            s = s + " " + SHRINK; // both pass options on to benchbase.jar
        }
        if (s.startsWith(DEMO) && (s.length() == DEMO.length() || s.charAt(DEMO.length()) == ' ')) {
            s = "IVS_DEMO_RESULTS=" + RESULTS + " IVS_DEMO_CONFIG=" + serverCopy(demoConfig()) + " " + s;
        }
        return s;
    }

    private String benchbase(String command) throws IOException {
        boolean background = command.endsWith(" &");
        String s = background ? command.substring(0, command.length() - 2) : command;
        Matcher m = CONFIG.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(serverCopy(m.group())));
        }
        m.appendTail(out);
        s = out.toString();
        boolean writes = s.contains(" --execute") || s.startsWith(JAR + " replay ") || s.startsWith(JAR + " tenants ");
        if (writes && !s.matches(".* -d \\S.*")) {
            s = s + " -d " + RESULTS;
        }
        // replay takes no --shrink: it replays what the (shrunk) trace holds.
        if (shrink && (s.contains(" --load") || s.contains(" --execute")) && !s.startsWith(JAR + " replay ")) {
            s = s + " " + SHRINK;
        }
        return background ? s + " &" : s;
    }

    /** The config scripts/demo.sh runs when IVS_DEMO_CONFIG is not set. */
    private String demoConfig() throws IOException {
        Matcher m = DEMO_CONFIG.matcher(Files.readString(root.resolve(DEMO)));
        if (!m.find()) {
            throw new IllegalStateException(DEMO + " names no default config as ${IVS_DEMO_CONFIG:-...}");
        }
        return m.group(1);
    }

    /**
     * The config itself, or a copy under the scratch folder pointing at the suite's server, or with its relative
     * SQLite file under the scratch folder.
     */
    private String serverCopy(String config) throws IOException {
        Path file = root.resolve(config);
        if (!Files.isRegularFile(file)) {
            return config; // the command will say so, as it would to a reader
        }
        String xml = Files.readString(file);
        String copy = xml;
        for (Server server : SERVERS) {
            Matcher m = server.url().matcher(copy);
            if (m.find()) {
                String url = environment.get(server.variable());
                if (url == null || url.isBlank()) {
                    TestServers.missing(config + " needs the suite's " + server.name() + " (" + server.variable()
                            + " is not set: run the suite with scripts/test.sh)");
                }
                Matcher suite = server.url().matcher(url);
                if (!suite.find()) {
                    throw new IllegalStateException(server.variable() + " is not a " + server.name() + " URL: " + url);
                }
                copy = m.replaceAll(Matcher.quoteReplacement(suite.group()));
            }
        }
        copy = SQLITE_FILE.matcher(copy).replaceAll("$1" + Matcher.quoteReplacement(SCRATCH + "/"));
        if (copy.equals(xml)) {
            return config;
        }
        Path target = root.resolve(SCRATCH).resolve(config);
        Files.createDirectories(target.getParent());
        Files.writeString(target, copy);
        return SCRATCH + "/" + config;
    }

    /** Results placeholders: the folders earlier commands printed, of the kind the placeholder's name says. */
    private String fillResults(String s) {
        Map<String, Predicate<String>> kinds = new LinkedHashMap<>();
        kinds.put("tenants_<stamp>", n -> n.startsWith("tenants_"));
        kinds.put("ycsbivs_...", this::isRun);
        kinds.put("ycsbivs-sweep_A", this::isSweep);
        kinds.put("ycsbivs-sweep_B", this::isSweep);
        kinds.put("x-sweep_a", this::isSweep);
        kinds.put("y-sweep_b", this::isSweep);
        kinds.put("a", this::isRun);
        kinds.put("b", this::isRun);
        for (Map.Entry<String, Predicate<String>> kind : kinds.entrySet()) {
            String token = RESULTS + kind.getKey();
            Pattern p = Pattern.compile(Pattern.quote(token) + "(?=[\\s/]|$)");
            if (!p.matcher(s).find()) {
                continue;
            }
            List<String> found = printed.stream().filter(kind.getValue()).toList();
            // The second of a pair (B, b) is the folder before the newest one: a pair never names one folder twice.
            boolean second = kind.getKey().endsWith("B") || kind.getKey().endsWith("b");
            int needed = second ? 2 : 1;
            if (found.size() < needed) {
                throw new IllegalStateException("earlier commands printed " + found.size() + " results folder(s) of "
                        + "the kind " + token + " stands for; it needs " + needed + " distinct ones: " + printed);
            }
            String name = found.get(found.size() - needed);
            s = p.matcher(s).replaceAll(Matcher.quoteReplacement(RESULTS + name));
        }
        return s;
    }

    private boolean isRun(String name) {
        return Files.isRegularFile(root.resolve(RESULTS).resolve(name).resolve("summary.json"));
    }

    private boolean isSweep(String name) {
        return Files.isRegularFile(root.resolve(RESULTS).resolve(name).resolve("sweep.csv"));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
