package org.ivsbench.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The doc test's checks of documented outputs find what is missing (a demo folder whose report lacks a finding or
 * whose path is not printed), and a results pair never names one folder twice. Files only, no jar or server.
 */
class DocOutputsTest {
    private static final String DEMO_COMMAND = "IVS_DEMO_RESULTS=x " + DocFixtures.DEMO + " --shrink";

    @TempDir
    Path root;

    @Test
    void theDemoMustPrintItsFolderAndReportAndShowEveryFinding() throws Exception {
        Path dir = Files.createDirectories(root.resolve(DocFixtures.RESULTS).resolve("ycsbivs-experiment_1"));
        Files.writeString(dir.resolve("epochs.csv"), "epoch,mode\n");
        Files.writeString(dir.resolve("findings.json"), "[{\"kind\":\"step\",\"title\":\"Reads <fell> & 'rose'\"}]");
        String finding = "<li class=\"finding step\"><b>Reads &lt;fell&gt; &amp; &#39;rose&#39;</b>\n</li>";
        Files.writeString(dir.resolve("report.html"), "<ol id=\"findings\">\n" + finding + "\n</ol>");
        String output = dir + "/report.html\n[demo] report: " + dir + "/report.html\n" + dir + "\n";
        DocOutputs outputs = new DocOutputs(root);

        assertEquals(List.of(), outputs.check(DEMO_COMMAND, output));

        List<String> unprinted = outputs.check(DEMO_COMMAND, dir + "\n");
        assertEquals(1, unprinted.size(), unprinted::toString);
        assertTrue(unprinted.get(0).contains("does not print the report's path"), unprinted::toString);

        Files.writeString(dir.resolve("report.html"), "<h2>Charts</h2>");
        List<String> hidden = outputs.check(DEMO_COMMAND, output);
        assertEquals(1, hidden.size(), hidden::toString);
        assertTrue(hidden.get(0).contains("shows the findings []"), hidden::toString);

        Files.delete(dir.resolve("report.html"));
        assertTrue(outputs.check(DEMO_COMMAND, output).stream().anyMatch(p -> p.startsWith("missing ")));

        List<String> elsewhere = outputs.check(DEMO_COMMAND, "results/ycsbivs-experiment_1\n");
        assertTrue(elsewhere.get(0).contains("is not a results folder under"), elsewhere::toString);
    }

    @Test
    void theAnalyzersReportMustNameTheReportItWrote() throws Exception {
        Path dir = Files.createDirectories(root.resolve(DocFixtures.RESULTS).resolve("run"));
        String command = ".cache/venv/bin/python -m ivs_analyzer report " + DocFixtures.RESULTS + "run";
        DocOutputs outputs = new DocOutputs(root);
        assertTrue(outputs.check(command, "done\n").get(0).contains("names no HTML page"));

        Files.writeString(dir.resolve("report.html"), "<p>no findings</p>");
        Files.writeString(dir.resolve("findings.json"), "[]");
        Files.writeString(dir.resolve("changes.json"), "[]");
        Files.write(dir.resolve("throughput.png"), new byte[] {1});
        assertEquals(List.of(), outputs.check(command, DocFixtures.RESULTS + "run/report.html\n"));
        Files.delete(dir.resolve("changes.json"));
        assertEquals(
                List.of("missing " + dir.resolve("changes.json")),
                outputs.check(command, DocFixtures.RESULTS + "run/report.html\n"));
        Files.writeString(dir.resolve("tenants.json"), "{}"); // a tenants folder: interference.csv instead
        assertEquals(
                List.of("missing " + dir.resolve("interference.csv")),
                outputs.check(command, DocFixtures.RESULTS + "run/report.html\n"));
        Files.writeString(dir.resolve("interference.csv"), "tenant\n");
        assertEquals(List.of(), outputs.check(command, DocFixtures.RESULTS + "run/report.html\n"));
    }

    @Test
    void theSweepReportMustBeWrittenIntoItsOutFolder() throws Exception {
        Path out = Files.createDirectories(root.resolve(DocFixtures.SCRATCH).resolve("sweep-report"));
        String command = ".cache/venv/bin/python -m ivs_analyzer sweep " + DocFixtures.RESULTS + "s_A "
                + DocFixtures.RESULTS + "s_B -o " + DocFixtures.SCRATCH + "/sweep-report";
        String printed = DocFixtures.SCRATCH + "/sweep-report/sweep-report.md\n";
        Files.writeString(out.resolve("sweep-report.md"), "# Sweep");
        Files.writeString(out.resolve("anova.csv"), "source\n");
        assertEquals(List.of("missing " + out.resolve("runtime.csv")), new DocOutputs(root).check(command, printed));
        Files.writeString(out.resolve("runtime.csv"), "threads\n");
        assertEquals(List.of(), new DocOutputs(root).check(command, printed));
        Path elsewhere = Files.createDirectories(root.resolve("other"));
        Files.writeString(elsewhere.resolve("sweep-report.md"), "# Sweep");
        Files.writeString(elsewhere.resolve("anova.csv"), "source\n");
        Files.writeString(elsewhere.resolve("runtime.csv"), "threads\n");
        List<String> outside = new DocOutputs(root).check(command, "other/sweep-report.md\n");
        assertEquals(1, outside.size(), outside::toString);
        assertTrue(outside.get(0).contains("is not inside the -o folder"), outside::toString);
    }

    @Test
    void aResultsPairIsTwoDistinctFolders() throws Exception {
        DocFixtures fixtures = new DocFixtures(root, Map.of(), false);
        String compare = ".cache/venv/bin/python -m ivs_analyzer compare results/a results/b";
        run(fixtures, "ycsbivs_1");
        IllegalStateException one = assertThrows(IllegalStateException.class, () -> fixtures.prepare(compare));
        assertTrue(one.getMessage().contains("it needs 2 distinct ones"), one::getMessage);

        run(fixtures, "ycsbivs_2");
        String prepared = fixtures.prepare(compare);
        assertTrue(
                prepared.contains(DocFixtures.RESULTS + "ycsbivs_2 " + DocFixtures.RESULTS + "ycsbivs_1 "), prepared);
    }

    private void run(DocFixtures fixtures, String name) throws Exception {
        Path dir = Files.createDirectories(root.resolve(DocFixtures.RESULTS).resolve(name));
        Files.writeString(dir.resolve("summary.json"), "{}");
        fixtures.printed(name);
    }
}
