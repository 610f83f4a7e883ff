package org.ivsbench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.ivsbench.bench.ycsbivs.YcsbIvsModule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing outside {@code bench/ycsbivs} names its procedures or parameters (README, "Layout"): the main sources
 * elsewhere hold no string literal or text block that is, or contains as a word, one of its transaction type or
 * parameter names ({@code "; extendmethod=server falls back"} counts), the main resources name none either, and
 * nothing outside {@code bench/} reads a benchmark parameter by name. Comments may mention them. BenchBase's YCSB
 * ({@code bench/ycsb}) has transaction types of the same names, so only the parameter names are checked there.
 */
class YcsbIvsNamesStayInsideTest {
    private static final Path MAIN = Path.of("src/main/java/org/ivsbench");
    private static final Path YCSBIVS = MAIN.resolve("bench/ycsbivs");
    private static final Path YCSB = MAIN.resolve("bench/ycsb");
    private static final Path BENCH = MAIN.resolve("bench");

    /** ycsbivs parameter names that are also ordinary words of other layers (a trace's table, a server's engine). */
    private static final Set<String> COMMON_WORDS = Set.of("table", "engine", "keys");

    /**
     * Parameter names that are also words of prose ("unknown distribution 'x'", "the experiment section differs"):
     * only a whole literal counts.
     */
    private static final Set<String> PROSE_WORDS = Set.of("distribution", "distributions", "section", "sections");

    private static final Path RESOURCES = Path.of("src/main/resources");

    /** A word inside a string: letters, digits and underscores (so "extendmethod=server" holds "extendmethod"). */
    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9_]+");

    private static final Pattern READS_A_PARAMETER =
            Pattern.compile("parameters\\(\\)\\s*\\.\\s*(get|getOrDefault|containsKey)\\s*\\(\\s*\"");

    @Test
    void noMainSourceOutsideYcsbIvsNamesItsProceduresOrParameters() throws IOException {
        YcsbIvsModule ycsbivs = new YcsbIvsModule();
        Set<String> procedures = Set.copyOf(ycsbivs.supportedTransactionTypes());
        Set<String> parameters = new TreeSet<>(ycsbivs.parameterNames());
        parameters.addAll(ycsbivs.phaseParameterNames());
        parameters.removeAll(COMMON_WORDS);
        assertTrue(procedures.contains("ReadRecord") && parameters.contains("recordcount"), "the names are read");

        List<String> found = new ArrayList<>();
        for (Path file : mainSources()) {
            if (file.startsWith(YCSBIVS)) {
                continue;
            }
            Source source = Source.of(Files.readString(file, StandardCharsets.UTF_8));
            Set<String> names = new TreeSet<>(parameters);
            if (!file.startsWith(YCSB)) {
                names.addAll(procedures);
            }
            for (String literal : source.literals()) {
                String name = named(literal, names);
                if (name != null) {
                    found.add(file + ": \"" + literal + "\" names " + name);
                }
            }
            if (!file.startsWith(BENCH)
                    && READS_A_PARAMETER.matcher(source.code()).find()) {
                found.add(file + ": reads a benchmark parameter by name");
            }
        }
        for (Path file : mainResources()) {
            String name = named(Files.readString(file, StandardCharsets.UTF_8), parameters);
            if (name == null) {
                name = named(Files.readString(file, StandardCharsets.UTF_8), procedures);
            }
            if (name != null) {
                found.add(file + ": names " + name);
            }
        }
        assertEquals(List.of(), found, "ycsbivs's names belong to bench/ycsbivs (its ExperimentSupport, its module)");
    }

    /** The first of {@code names} that a text is, or holds as a word (prose words only as the whole text). */
    static String named(String text, Set<String> names) {
        if (names.contains(text)) {
            return text;
        }
        Matcher words = WORD.matcher(text);
        while (words.find()) {
            String word = words.group();
            if (names.contains(word) && !PROSE_WORDS.contains(word)) {
                return word;
            }
        }
        return null;
    }

    @Test
    void namesAreFoundInsideLongerStrings() {
        Set<String> names = Set.of("extendmethod", "ReadRecord", "distribution");
        assertEquals("extendmethod", named("; extendmethod=server falls back to client (", names));
        assertEquals("ReadRecord", named("line one\nReadRecord,ExtendRecord\n", names));
        assertEquals("distribution", named("distribution", names));
        // A prose word inside a sentence, or a name inside a longer word, is not the name.
        assertNull(named("unknown distribution 'x'", names));
        assertNull(named("extendmethods ReadRecords", names));
        // Inside a text block.
        List<String> block = Source.of("String s = \"\"\"\n    use extendmethod=client\n    \"\"\";")
                .literals();
        assertEquals("extendmethod", named(block.get(0), names));
    }

    @Test
    void literalsAreFoundInCodeButNotInComments() {
        Source s = Source.of("// \"ReadRecord\"\n/* \"recordcount\" */ String a = \"x\\\"y\"; char c = '\"';\n"
                + "String b = \"\"\"\n    ExtendRecord\"\"\"; m(\"fieldcount\");");
        assertEquals(List.of("x\\\"y", "    ExtendRecord", "fieldcount"), s.literals());
        assertTrue(s.code().contains("m(\"fieldcount\")") && !s.code().contains("recordcount"), s.code());
    }

    private static List<Path> mainResources() throws IOException {
        if (!Files.isDirectory(RESOURCES)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(RESOURCES)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static List<Path> mainSources() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
    }

    /** A Java source with its comments removed ({@code code}) and its string literals' contents, in order. */
    record Source(String code, List<String> literals) {
        static Source of(String text) {
            StringBuilder code = new StringBuilder();
            List<String> literals = new ArrayList<>();
            int i = 0;
            int n = text.length();
            while (i < n) {
                if (text.startsWith("//", i)) {
                    while (i < n && text.charAt(i) != '\n') {
                        i++;
                    }
                } else if (text.startsWith("/*", i)) {
                    int end = text.indexOf("*/", i + 2);
                    i = end < 0 ? n : end + 2;
                    code.append(' ');
                } else if (text.startsWith("\"\"\"", i)) {
                    int end = text.indexOf("\"\"\"", i + 3);
                    end = end < 0 ? n : end;
                    String body = text.substring(i + 3, end);
                    int newline = body.indexOf('\n');
                    literals.add(newline < 0 ? body : body.substring(newline + 1));
                    code.append(text, i, Math.min(n, end + 3));
                    i = end + 3;
                } else if (text.charAt(i) == '"' || text.charAt(i) == '\'') {
                    char quote = text.charAt(i);
                    int j = i + 1;
                    while (j < n && text.charAt(j) != quote) {
                        j += text.charAt(j) == '\\' ? 2 : 1;
                    }
                    if (quote == '"') {
                        literals.add(text.substring(i + 1, Math.min(j, n)));
                    }
                    code.append(text, i, Math.min(n, j + 1));
                    i = j + 1;
                } else {
                    code.append(text.charAt(i));
                    i++;
                }
            }
            return new Source(code.toString(), List.copyOf(literals));
        }
    }
}
