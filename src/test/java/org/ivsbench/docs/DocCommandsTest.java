package org.ivsbench.docs;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import org.ivsbench.testsupport.TestServers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every command in the README and docs/ runs as written (issue 21: a renamed option or a moved file fails the
 * suite instead of a user). {@link DocExtractor} finds the command lines of the pages (fenced or indented
 * blocks, and scripts/bench/README.md's table of benchmarks); {@link DocFixtures} fills what a page leaves to
 * the reader (their own config file, a results folder an earlier command printed, the suite's server in a
 * shipped config) and appends {@code --shrink} to long runs; {@link DocRunner} runs each step with bash from
 * the project root, in page order, with the suite's server URLs in the environment, stdin from /dev/null and
 * a time bound per step; {@link DocOutputs} checks what the pages say a step writes or prints. One dynamic test
 * per step that runs, named page:line and command. A command in the allow-list (docs/trust.md, "Not run: the
 * allow-list", the one list, each entry with its reason) is not run and is no test (neither passed nor
 * skipped): the run prints one line counting them, {@value #NOT_RUN}; an entry that covers no documented
 * command fails, so the list cannot go stale.
 *
 * <p>Commands that start the private servers ({@code scripts/mariadb.sh start}, ...) run against the suite's
 * own servers, which scripts/test.sh started from the same scripts: start finds them running and prints their
 * variables. Stopping them is allow-listed.
 */
class DocCommandsTest {
    /** Per step; scripts/demo.sh may create the analyzer's venv on a fresh machine first. */
    private static final Duration STEP_TIMEOUT = Duration.ofMinutes(5);

    private static final Duration DEMO_TIMEOUT = Duration.ofMinutes(15);

    static final String NOT_RUN = "documented commands not run (allow-list in docs/trust.md)";

    private static final Pattern SERVER_START =
            Pattern.compile("scripts/(mariadb|postgres|cassandra|mongo-standin)\\.sh start");

    @TestFactory
    List<DynamicNode> everyDocumentedCommandRuns() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        List<DocExtractor.Block> blocks = DocExtractor.all(root);
        DocAllowList allow = DocAllowList.read(root.resolve("docs/trust.md"));
        Map<String, String> env = suiteEnvironment();
        DocFixtures fixtures = new DocFixtures(root, env, true);
        DocRunner runner = new DocRunner(root, fixtures, env);
        DocOutputs outputs = new DocOutputs(root);

        // Distinct commands not run, by the allow-list entry covering them.
        Map<String, Set<String>> notRun = new LinkedHashMap<>();
        blocks.forEach(b -> b.steps().forEach(s -> allow.entryFor(s.text())
                .ifPresent(e -> notRun.computeIfAbsent(e, k -> new TreeSet<>()).add(s.text()))));
        System.out.println(notRunLine(notRun));

        List<DynamicNode> nodes = new ArrayList<>();
        nodes.add(DynamicTest.dynamicTest("every allow-list entry covers a documented command", () -> {
            Set<String> unused = new TreeSet<>(allow.entries().keySet());
            unused.removeAll(notRun.keySet());
            assertEquals(Set.of(), unused, "allow-list entries in docs/trust.md that no page documents any more");
        }));
        Map<String, DocExtractor.Step> first = new HashMap<>();
        Map<String, Boolean> passed = new HashMap<>();
        for (DocExtractor.Block block : blocks) {
            List<DynamicTest> tests = new ArrayList<>();
            for (DocExtractor.Step step : block.steps()) {
                String name = step.line() + " " + step.text();
                var entry = allow.entryFor(step.text());
                DocExtractor.Step earlier = first.putIfAbsent(step.text(), step);
                if (entry.isPresent()) {
                    continue; // counted in the NOT_RUN line
                } else if (earlier != null && !step.text().equals("wait")) {
                    tests.add(DynamicTest.dynamicTest(
                            name + "  [ran at " + earlier.page() + ":" + earlier.line() + "]", () -> {
                                assertTrue(
                                        passed.getOrDefault(step.text(), false),
                                        "the same command at " + earlier + " failed");
                            }));
                } else {
                    tests.add(DynamicTest.dynamicTest(name, () -> {
                        requireRunningServers(root, step.text());
                        Duration timeout = step.text().startsWith("scripts/demo.sh")
                                        || step.text().startsWith("scripts/repro.sh")
                                ? DEMO_TIMEOUT
                                : STEP_TIMEOUT;
                        DocRunner.Result r = runner.run(step.text(), timeout);
                        assertTrue(r.ok(), () -> step + "\n" + r.describe());
                        List<String> wrong = step.text().equals("wait")
                                ? List.of()
                                : outputs.check(r.command(), Files.readString(r.log()));
                        passed.put(step.text(), wrong.isEmpty());
                        assertEquals(List.of(), wrong, () -> step + ": not the documented output\n" + r.describe());
                    }));
                }
            }
            if (!tests.isEmpty()) {
                nodes.add(DynamicContainer.dynamicContainer(block.page() + ":" + block.line(), tests));
            }
        }
        nodes.add(DynamicTest.dynamicTest("no background command is left running", () -> {
            DocRunner.Result r = runner.finish(STEP_TIMEOUT);
            assertTrue(r.ok(), r::describe);
        }));
        return nodes;
    }

    /** One line: how many distinct documented commands are not run, and the entries covering them. */
    static String notRunLine(Map<String, Set<String>> notRun) {
        int commands = notRun.values().stream().mapToInt(Set::size).sum();
        List<String> entries = new ArrayList<>();
        notRun.forEach(
                (entry, covered) -> entries.add(covered.size() == 1 ? entry : entry + " (" + covered.size() + ")"));
        return commands + " " + NOT_RUN + ": " + String.join(", ", entries);
    }

    /** This JVM's environment with the suite's server URLs (system properties win, as in TestServers). */
    static Map<String, String> suiteEnvironment() {
        Map<String, String> env = new HashMap<>(System.getenv());
        Map<String, String> properties = Map.of(
                "ivs.mariadb.url", "IVS_MARIADB_URL",
                "ivs.postgres.url", "IVS_POSTGRES_URL",
                "ivs.cassandra.url", "IVS_CASSANDRA_URL",
                "ivs.mongo.url", "IVS_MONGO_URL",
                "ivs.postgres.pidfile", "IVS_POSTGRES_PIDFILE");
        properties.forEach((property, variable) -> {
            String value = System.getProperty(property);
            if (value != null && !value.isBlank()) {
                env.put(variable, value);
            }
        });
        env.putIfAbsent("IVS_MARIADB_PASSWORD", TestServers.mariadbPassword());
        env.putIfAbsent("IVS_POSTGRES_PASSWORD", TestServers.postgresPassword());
        return env;
    }

    /**
     * A documented {@code scripts/X.sh start} must find the suite's server already running (scripts/test.sh
     * starts them from the same scripts): started here, nobody would stop it, since stop is allow-listed.
     */
    private static void requireRunningServers(Path root, String command) throws IOException, InterruptedException {
        Matcher m = SERVER_START.matcher(command);
        while (m.find()) {
            Process p = new ProcessBuilder("scripts/" + m.group(1) + ".sh", "status")
                    .directory(root.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
            if (p.exitValue() != 0) {
                TestServers.missing("'" + command + "' would start a " + m.group(1)
                        + " nobody stops: start it first as scripts/test.sh does (scripts/" + m.group(1)
                        + ".sh start)");
            }
        }
    }
}
