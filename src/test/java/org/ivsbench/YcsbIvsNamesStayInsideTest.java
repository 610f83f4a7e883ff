package org.ivsbench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.ivsbench.bench.ycsbivs.YcsbIvsModule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing outside {@code bench/ycsbivs} names its procedures or parameters (README, "Layout"): the main sources
 * elsewhere hold no string literal that is one of its transaction type or parameter names, and nothing outside
 * {@code bench/} reads a benchmark parameter by name. Comments may mention them. BenchBase's YCSB
 * ({@code bench/ycsb}) has transaction types of the same names, so only the parameter names are checked there.
 */
class YcsbIvsNamesStayInsideTest {
    private static final Path MAIN = Path.of("src/main/java/org/ivsbench");
    private static final Path YCSBIVS = MAIN.resolve("bench/ycsbivs");
    private static final Path YCSB = MAIN.resolve("bench/ycsb");
    private static final Path BENCH = MAIN.resolve("bench");

    /** ycsbivs parameter names that are also ordinary words of other layers (a trace's table, a server's engine). */
    private static final Set<String> COMMON_WORDS = Set.of("table", "engine", "keys");

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
            for (String literal : source.literals()) {
                if (parameters.contains(literal) || (!file.startsWith(YCSB) && procedures.contains(literal))) {
                    found.add(file + ": \"" + literal + "\"");
                }
            }
            if (!file.startsWith(BENCH)
                    && READS_A_PARAMETER.matcher(source.code()).find()) {
                found.add(file + ": reads a benchmark parameter by name");
            }
        }
        assertEquals(List.of(), found, "ycsbivs's names belong to bench/ycsbivs (its ExperimentSupport, its module)");
    }

    @Test
    void literalsAreFoundInCodeButNotInComments() {
        Source s = Source.of("// \"ReadRecord\"\n/* \"recordcount\" */ String a = \"x\\\"y\"; char c = '\"';\n"
                + "String b = \"\"\"\n    ExtendRecord\"\"\"; m(\"fieldcount\");");
        assertEquals(List.of("x\\\"y", "    ExtendRecord", "fieldcount"), s.literals());
        assertTrue(s.code().contains("m(\"fieldcount\")") && !s.code().contains("recordcount"), s.code());
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
