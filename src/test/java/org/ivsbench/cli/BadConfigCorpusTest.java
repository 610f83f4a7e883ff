package org.ivsbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every malformed or contradictory config in src/test/resources/config/bad/ through the real command line,
 * and those in its experiment/ folder, which only the experiment's own validation (after the config loader)
 * rejects:
 * exit code 2, one line naming the element and the value (the expectation is the file's first-line comment
 * {@code <!-- expect: PATH | FRAGMENT -->}), and no results folder.
 */
class BadConfigCorpusTest {
    private static final Path CORPUS = Path.of("src/test/resources/config/bad");
    private static final Pattern EXPECT = Pattern.compile("<!--\\s*expect:\\s*(.*?)\\s*\\|\\s*(.*?)\\s*-->");

    @TempDir
    Path results;

    static Stream<Path> corpus() throws IOException {
        try (Stream<Path> s = Stream.concat(Files.list(CORPUS), Files.list(CORPUS.resolve("experiment")))) {
            List<Path> files = s.filter(p -> p.toString().endsWith(".xml")).sorted().toList();
            assertTrue(files.size() >= 40, "corpus has " + files.size() + " files");
            return files.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void rejectedWithOneClearLine(Path file) throws IOException {
        String first = Files.readAllLines(file).stream().findFirst().orElse("");
        Matcher m = EXPECT.matcher(first);
        String path = m.find() ? m.group(1) : "";
        String fragment = m.find(0) ? m.group(2) : "";
        CliHarness.Result r = CliHarness.run("-b", "ycsbivs", "-c", file.toString(), "--create", "--load",
                "--execute", "-d", results.toString());
        assertEquals(2, r.code(), file + ": " + r.err());
        String err = r.err().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.contains(path), file + ": expected path '" + path + "' in: " + err);
        assertTrue(err.contains(fragment), file + ": expected '" + fragment + "' in: " + err);
        try (Stream<Path> s = Files.list(results)) {
            assertFalse(s.findAny().isPresent(), "no results folder");
        }
    }
}
