package org.ivsbench.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The doc test can fail, and for the right reason: a copy of README.md in which the first benchmark command's
 * {@code --create=true} is renamed {@code --creat=true} goes through the same extractor, fixtures and runner as
 * DocCommandsTest and fails with the CLI's one line naming the option; the unchanged copy of the same block
 * passes (so the failure is the rename's). Needs target/benchbase.jar, no server.
 */
class DocCommandsRenameTest {
    private static final String COMMAND = "-c config/sqlite/ycsbivs_config.xml";

    @Test
    void aRenamedOptionInAPageFailsItsStep() throws Exception {
        Path root = Path.of("").toAbsolutePath();
        assertTrue(Files.isRegularFile(root.resolve("target/benchbase.jar")), "needs mvn -DskipTests package first");
        List<String> readme = Files.readAllLines(root.resolve("README.md"));

        DocRunner.Result renamed = runBenchmarkStep(
                root,
                readme.stream()
                        .map(l -> l.replace(
                                "--create=true --load=true --execute=true -d results/",
                                "--creat=true --load=true --execute=true -d results/"))
                        .toList());
        assertEquals(2, renamed.code(), renamed::describe);
        assertTrue(renamed.tail().contains("Unknown option: '--creat=true'"), renamed::describe);

        DocRunner.Result asShipped = runBenchmarkStep(root, readme);
        assertEquals(0, asShipped.code(), asShipped::describe);
    }

    /** The step of README.md's "Running a benchmark" block that runs the SQLite sample, run as the doc test does. */
    private static DocRunner.Result runBenchmarkStep(Path root, List<String> page) throws Exception {
        DocExtractor.Step step = DocExtractor.blocks("README.md", page).stream()
                .flatMap(b -> b.steps().stream())
                .filter(s -> s.text().startsWith(DocFixtures.JAR) && s.text().contains(COMMAND))
                .findFirst()
                .orElseThrow(() -> new AssertionError("README.md runs no benchmark with " + COMMAND));
        var env = DocCommandsTest.suiteEnvironment();
        DocRunner runner = new DocRunner(root, new DocFixtures(root, env, true), env);
        return runner.run(step.text(), Duration.ofMinutes(3));
    }
}
