package org.ivsbench.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the pages say a command writes or prints, checked on the step that ran it (beyond its exit code):
 *
 * <ul>
 *   <li>{@code scripts/demo.sh} (README: "then the HTML report; prints both paths", "writes report.html beside
 *       epochs.csv"): its last line is the experiment's folder, under the doc test's results folder, holding
 *       epochs.csv and report.html; its output names {@code report: <folder>/report.html}; the report shows
 *       every finding of the folder's findings.json.
 *   <li>{@code ivs_analyzer report DIR} (docs/measurement.md: "writes report.html, PNG charts and changes.json"
 *       for a run or an experiment; docs/tenants.md: a chart and interference.csv for a tenants folder): the path
 *       it prints is DIR's report.html, with at least one PNG chart and changes.json (a tenants folder, which
 *       holds tenants.json: interference.csv) beside it, and the report shows every finding of findings.json.
 *   <li>{@code ivs_analyzer compare} and {@code browse} (without {@code --serve}): the file they print on their last
 *       line exists and is an HTML page, inside the {@code -o} folder when one is given; {@code sweep} (docs/sweeps.md:
 *       "sweep-report.md, anova.csv ..., runtime.csv, PNG charts; into -o DIR"): it prints its sweep-report.md, with
 *       anova.csv and runtime.csv beside it.
 *   <li>A benchbase.jar command that executes into the doc test's results folder (README's {@code -d results/}):
 *       its output names a results folder there that exists.
 * </ul>
 *
 * Each check returns the problems it found (empty: the output is as documented).
 */
final class DocOutputs {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ANALYZER = Pattern.compile("-m ivs_analyzer (report|compare|sweep|browse)\\s+(\\S+)");
    private static final Pattern OUT_OPTION = Pattern.compile("\\s(?:-o|--out)\\s+(\\S+)");
    private static final Pattern FINDING = Pattern.compile("<li class=\"finding [^\"]*\"><b>(.*?)</b>");
    private static final Pattern PRINTED_RESULTS =
            Pattern.compile(Pattern.quote(DocFixtures.RESULTS) + "[A-Za-z0-9_.-]+");

    private final Path root;

    DocOutputs(Path root) {
        this.root = root;
    }

    /** The command's documented outputs that are missing or wrong; empty when there are none to check. */
    List<String> check(String command, String output) throws IOException {
        List<String> problems = new ArrayList<>();
        String[] lines = output.strip().split("\n");
        String last = lines[lines.length - 1].strip();
        if (command.matches("(\\w+=\\S+ )*" + Pattern.quote(DocFixtures.DEMO) + "( .*)?")) {
            demo(last, output, problems);
            return problems;
        }
        Matcher analyzer = ANALYZER.matcher(command);
        if (analyzer.find() && !command.contains(" --serve")) {
            Path page = root.resolve(last);
            boolean sweep = analyzer.group(1).equals("sweep");
            if (!last.endsWith(sweep ? "/sweep-report.md" : ".html") || !Files.isRegularFile(page)) {
                problems.add("the analyzer's last line names no " + (sweep ? "sweep-report.md" : "HTML page")
                        + " it wrote: '" + last + "'");
                return problems;
            }
            if (sweep) {
                requireFile(page.resolveSibling("anova.csv"), problems);
                requireFile(page.resolveSibling("runtime.csv"), problems);
            }
            Matcher out = OUT_OPTION.matcher(command);
            if (out.find()
                    && !page.normalize().startsWith(root.resolve(out.group(1)).normalize())) {
                problems.add(page + " is not inside the -o folder " + out.group(1));
            }
            if (analyzer.group(1).equals("report")) {
                Path dir = root.resolve(analyzer.group(2)).normalize();
                if (!page.normalize().equals(dir.resolve("report.html"))) {
                    problems.add("report wrote " + page + ", not " + dir.resolve("report.html"));
                }
                boolean tenants = Files.isRegularFile(dir.resolve("tenants.json"));
                requireFile(dir.resolve(tenants ? "interference.csv" : "changes.json"), problems);
                try (var files = Files.list(dir)) {
                    if (files.noneMatch(f -> f.toString().endsWith(".png"))) {
                        problems.add("no PNG chart in " + dir);
                    }
                }
                showsFindings(dir, problems);
            }
            return problems;
        }
        boolean execute = command.startsWith(DocFixtures.JAR + " ")
                && command.contains(" --execute")
                && command.contains(" -d " + DocFixtures.RESULTS)
                && !command.endsWith("&");
        if (execute) {
            Matcher m = PRINTED_RESULTS.matcher(output);
            boolean found = false;
            while (m.find()) {
                found |= Files.isDirectory(root.resolve(m.group()));
            }
            if (!found) {
                problems.add("its output names no results folder under " + DocFixtures.RESULTS + " that exists");
            }
        }
        return problems;
    }

    private void demo(String last, String output, List<String> problems) throws IOException {
        Path dir = root.resolve(last).normalize();
        if (!dir.startsWith(root.resolve(DocFixtures.RESULTS)) || !Files.isDirectory(dir)) {
            problems.add("its last line is not a results folder under " + DocFixtures.RESULTS + ": '" + last + "'");
            return;
        }
        requireFile(dir.resolve("epochs.csv"), problems);
        requireFile(dir.resolve("report.html"), problems);
        if (!output.contains("report: " + last + "/report.html")) {
            problems.add("its output does not print the report's path (report: " + last + "/report.html)");
        }
        showsFindings(dir, problems);
    }

    /** report.html lists every finding of findings.json, in its order, titles as written (HTML-escaped). */
    private static void showsFindings(Path dir, List<String> problems) throws IOException {
        Path json = dir.resolve("findings.json");
        Path html = dir.resolve("report.html");
        if (!Files.isRegularFile(json) || !Files.isRegularFile(html)) {
            problems.add("no findings.json and report.html in " + dir);
            return;
        }
        List<String> expected = new ArrayList<>();
        for (JsonNode f : JSON.readTree(json.toFile())) {
            expected.add(escape(f.get("title").asText()));
        }
        List<String> shown = new ArrayList<>();
        Matcher m = FINDING.matcher(Files.readString(html));
        while (m.find()) {
            shown.add(m.group(1));
        }
        if (!shown.equals(expected)) {
            problems.add(html + " shows the findings " + shown + ", findings.json has " + expected);
        }
    }

    private static void requireFile(Path file, List<String> problems) {
        if (!Files.isRegularFile(file)) {
            problems.add("missing " + file);
        }
    }

    /** As jinja2's autoescape writes text into HTML. */
    static String escape(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&#34;")
                .replace("'", "&#39;");
    }
}
