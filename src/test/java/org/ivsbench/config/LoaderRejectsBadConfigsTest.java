package org.ivsbench.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every file under src/test/resources/config/bad/ holds exactly one mistake and says on its first line what
 * the loader must report: {@code <!-- expect: <path> | <message fragment> -->}. The path must match exactly,
 * so an error reported at the wrong element fails as surely as a missing one.
 */
class LoaderRejectsBadConfigsTest {
    static final Path CORPUS = Path.of("src/test/resources/config/bad");
    private static final Pattern EXPECT = Pattern.compile("^<!-- expect: (.+?) \\| (.+?) -->$");

    record Expectation(String path, String fragment) {}

    static Expectation expectation(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        String first = lines.isEmpty() ? "" : lines.get(0);
        Matcher m = EXPECT.matcher(first);
        if (!m.matches()) {
            throw new AssertionError(file + ": first line must be <!-- expect: path | fragment -->, found: " + first);
        }
        return new Expectation(m.group(1), m.group(2));
    }

    static Stream<Path> corpus() throws IOException {
        try (Stream<Path> files = Files.list(CORPUS)) {
            return files.filter(f -> f.toString().endsWith(".xml")).sorted().toList().stream();
        }
    }

    @Test
    void corpusIsLargeEnough() throws IOException {
        assertTrue(corpus().count() >= 40, "the corpus should cover at least 40 distinct mistakes");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void reportsTheExpectedPathAndValue(Path file) throws IOException {
        Expectation expected = expectation(file);
        ConfigException e = assertThrows(
                ConfigException.class, () -> YcsbIvsNames.load(file), file.getFileName() + " was accepted");
        assertEquals(expected.path(), e.path(), () -> "wrong path; message was: " + e.getMessage());
        assertTrue(
                e.getMessage().contains(expected.fragment()),
                () -> "message '" + e.getMessage() + "' lacks '" + expected.fragment() + "'");
        assertTrue(e.getMessage().startsWith(e.path() + ": "), "message starts with the path");
    }
}
