package org.ivsbench.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the commands a reader of the README and docs/ is told to type (rules in docs/trust.md, "Every
 * documented command runs"). Pure text work: no process is started here.
 *
 * <ul>
 *   <li>Pages: README.md, docs/*.md, docs/repro/README.md, config/README.md, config/&#42;/README.md, docker/README.md, scripts/bench/README.md.
 *   <li>Code blocks: fenced (```) or indented by 4+ spaces after a blank line. A block is a command block when one
 *       of its lines is a command: it starts (after {@code $ }, {@code VAR=value} assignments or {@code eval "$(})
 *       with {@code java }, {@code mvn }, {@code scripts/}, {@code .cache/venv/} or {@code python -m ivs_analyzer}.
 *       Every line of a command block is a step (also {@code sed}, {@code wait}: the commands after them need
 *       them), except XML lines ({@code <...>}) shown beside the commands; lines ending in a backslash are joined; comments ({@code #} after a space, outside quotes) are
 *       dropped.
 *   <li>Tables: a row whose first cell is exactly one code span holding a command (scripts/bench/README.md's
 *       list of benchmarks) is a block of one step.
 * </ul>
 */
final class DocExtractor {
    /** A step of a block: its page, 1-based line, and the logical line as documented (comments dropped). */
    record Step(String page, int line, String text) {
        @Override
        public String toString() {
            return page + ":" + line + " " + text;
        }
    }

    record Block(String page, int line, List<Step> steps) {}

    private static final Pattern COMMAND = Pattern.compile(
            "^(\\$ )?(\\w+=\\S+ )*(eval \"\\$\\()?(java |mvn |scripts/|\\.cache/venv/|python3? -m ivs_analyzer)");
    private static final Pattern TABLE_COMMAND = Pattern.compile("^\\|\\s*`([^`]+)`\\s*\\|");

    private DocExtractor() {}

    /** The documented pages, in the order the test runs them (README first: later pages use its build). */
    static List<Path> pages(Path root) throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        pages.addAll(sorted(root.resolve("docs"), 1));
        Path repro = root.resolve("docs/repro/README.md");
        if (Files.isRegularFile(repro)) {
            pages.add(repro);
        }
        pages.add(root.resolve("config/README.md"));
        pages.addAll(sorted(root.resolve("config"), 2).stream()
                .filter(p -> root.resolve("config").relativize(p).getNameCount() == 2)
                .toList());
        Path docker = root.resolve("docker/README.md");
        if (Files.isRegularFile(docker)) {
            pages.add(docker);
        }
        pages.add(root.resolve("scripts/bench/README.md"));
        return pages;
    }

    private static List<Path> sorted(Path dir, int depth) throws IOException {
        try (Stream<Path> files = Files.walk(dir, depth)) {
            return files.filter(p -> Files.isRegularFile(p)
                            && (depth == 1 ? p.toString().endsWith(".md") : p.endsWith("README.md")))
                    .sorted()
                    .toList();
        }
    }

    static boolean isCommand(String logicalLine) {
        return COMMAND.matcher(logicalLine).find();
    }

    /** The command blocks of one page, in page order. */
    static List<Block> blocks(String page, List<String> lines) {
        List<Block> blocks = new ArrayList<>();
        List<int[]> spans = new ArrayList<>(); // [first line index, end index exclusive] of each code block
        boolean fenced = false;
        int start = -1;
        boolean previousBlank = true;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.strip().startsWith("```")) {
                if (fenced) {
                    spans.add(new int[] {start, i});
                } else {
                    start = i + 1;
                }
                fenced = !fenced;
                previousBlank = false;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher row = TABLE_COMMAND.matcher(l);
            if (row.find() && isCommand(row.group(1))) {
                blocks.add(new Block(
                        page, i + 1, List.of(new Step(page, i + 1, row.group(1).strip()))));
            }
            if (l.startsWith("    ") && !l.isBlank() && previousBlank) {
                int end = i;
                while (end < lines.size()
                        && (lines.get(end).isBlank() || lines.get(end).startsWith("    "))
                        && !lines.get(end).strip().startsWith("```")) {
                    end++;
                }
                spans.add(new int[] {i, end});
                i = end - 1;
                previousBlank = false;
                continue;
            }
            previousBlank = l.isBlank();
        }
        for (int[] span : spans) {
            List<Step> steps = steps(page, lines, span[0], span[1]);
            if (steps.stream().anyMatch(s -> isCommand(s.text()))) {
                blocks.add(new Block(page, steps.get(0).line(), steps));
            }
        }
        blocks.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return blocks;
    }

    private static List<Step> steps(String page, List<String> lines, int from, int to) {
        List<Step> steps = new ArrayList<>();
        StringBuilder logical = null;
        int first = 0;
        for (int i = from; i < to; i++) {
            String l = stripComment(lines.get(i)).strip();
            if (logical == null) {
                if (l.isEmpty() || l.startsWith("<")) { // blank, or an XML snippet beside the commands
                    continue;
                }
                logical = new StringBuilder();
                first = i + 1;
            }
            boolean continued = l.endsWith("\\");
            logical.append(continued ? l.substring(0, l.length() - 1).strip() : l)
                    .append(' ');
            if (!continued) {
                steps.add(new Step(page, first, logical.toString().strip().replaceAll("\\s+", " ")));
                logical = null;
            }
        }
        if (logical != null) {
            steps.add(new Step(page, first, logical.toString().strip().replaceAll("\\s+", " ")));
        }
        return steps;
    }

    /** The line without a shell comment: {@code #} at the start or after a blank, outside quotes. */
    static String stripComment(String line) {
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"') {
                    i++;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '\\') {
                i++;
            } else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /** Every command block of every documented page under {@code root}. */
    static List<Block> all(Path root) throws IOException {
        List<Block> blocks = new ArrayList<>();
        for (Path page : pages(root)) {
            blocks.addAll(blocks(root.relativize(page).toString(), Files.readAllLines(page)));
        }
        return blocks;
    }
}
