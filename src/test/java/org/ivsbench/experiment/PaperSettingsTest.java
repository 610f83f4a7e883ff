package org.ivsbench.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/paper-differences.md's "Settings, versions and host" table held to the files it describes: "as the paper"
 * only where the paper's cell and ivsbench's are the same, and the buffer pool row's setting in every InnoDB paper
 * preset and docs/repro config (the fresh instance's command and the primary's documented start), and in every
 * committed InnoDB run's experiment.json unless the row names that run as one that predates the setting.
 */
class PaperSettingsTest {
    private static final Path DOC = Path.of("docs/paper-differences.md");
    private static final String HEADING = "## Settings, versions and host";
    private static final String POOL_ROW = "`innodb_buffer_pool_size`";

    /** The table's rows by their first cell: {paper, ivsbench, consequence}. */
    static Map<String, String[]> settingsTable(String doc) {
        int at = doc.indexOf(HEADING);
        assertTrue(at >= 0, "docs/paper-differences.md has no '" + HEADING + "' section");
        Map<String, String[]> rows = new LinkedHashMap<>();
        boolean inTable = false;
        for (String line : doc.substring(at).split("\n")) {
            if (line.startsWith("## ") && !line.equals(HEADING)) {
                break;
            }
            if (!line.startsWith("|")) {
                if (inTable) {
                    break;
                }
                continue;
            }
            inTable = true;
            String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
            if (cells.length != 4) {
                throw new AssertionError("a settings row needs 4 cells (what, paper, ivsbench, consequence): " + line);
            }
            String what = cells[0].trim();
            if (what.equals("what") || what.startsWith("---")) {
                continue;
            }
            rows.put(what, new String[] {cells[1].trim(), cells[2].trim(), cells[3].trim()});
        }
        assertFalse(rows.isEmpty(), "the settings table is empty");
        return rows;
    }

    @Test
    void asThePaperOnlyWhereTheCellsAgree() throws IOException {
        Map<String, String[]> rows = settingsTable(Files.readString(DOC));
        List<String> wrong = new ArrayList<>();
        rows.forEach((what, c) -> {
            if (c[2].toLowerCase().startsWith("as the paper") && !sameSetting(c[0], c[1])) {
                wrong.add(what + ": paper '" + c[0] + "' vs ivsbench '" + c[1] + "'");
            }
        });
        assertEquals(List.of(), wrong, "rows that say 'as the paper' although the paper's cell and ivsbench's differ");
        assertFalse(
                Files.readString(DOC).contains("as far as the host allows"),
                "the host differs from the paper's: say how (the settings table), not 'as far as the host allows'");
    }

    /** The same setting: equal, or ivsbench's cell starts with the paper's value followed by ':' and its means. */
    private static boolean sameSetting(String paper, String ivsbench) {
        return ivsbench.equals(paper) || ivsbench.startsWith(paper + ":");
    }

    @Test
    void everyInnoDbPaperConfigHasThePapersBufferPool() throws IOException {
        String[] row = settingsTable(Files.readString(DOC)).get(POOL_ROW);
        assertTrue(row != null, "the settings table has no " + POOL_ROW + " row");
        Matcher m = Pattern.compile("`(IVS_MARIADB_BUFFER_POOL=\\S+)`").matcher(row[1]);
        assertTrue(m.find(), "the buffer pool row names the variable it is set with: " + row[1]);
        String assignment = m.group(1);
        List<Path> innodb = innoDbPaperConfigs();
        assertTrue(innodb.size() >= 10, "InnoDB paper presets and docs/repro configs: " + innodb);
        List<String> missing = new ArrayList<>();
        for (Path f : innodb) {
            String xml = Files.readString(f);
            Matcher fresh = Pattern.compile("<command>([^<]*restart-fresh[^<]*)</command>")
                    .matcher(xml);
            if (!fresh.find() || !fresh.group(1).contains(assignment + " ")) {
                missing.add(f + ": the fresh instance's command lacks " + assignment);
            }
            // The primary's documented start, in the header comment (docs/repro: scripts/repro.sh takes it from
            // the fresh command, checked above).
            if (f.startsWith("config") && !header(xml).contains(assignment + " scripts/mariadb.sh start")) {
                missing.add(f + ": the header's server start lacks " + assignment);
            }
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void committedInnoDbRunsRecordThePoolOrAreNamedAsOlder() throws IOException {
        String[] row = settingsTable(Files.readString(DOC)).get(POOL_ROW);
        long paperBytes = 4L << 30;
        ObjectMapper json = new ObjectMapper();
        List<String> unexplained = new ArrayList<>();
        int checked = 0;
        try (Stream<Path> s = Files.list(Path.of("docs/repro"))) {
            for (Path dir : s.sorted().toList()) {
                Path exp = dir.resolve("experiment.json");
                if (!dir.getFileName().toString().startsWith("innodb") || !Files.isRegularFile(exp)) {
                    continue;
                }
                checked++;
                JsonNode settings = json.readTree(exp.toFile()).path("serverSettings");
                for (String server : List.of("primary", "freshInstance")) {
                    long pool = settings.path(server)
                            .path("innodb_buffer_pool_size")
                            .asLong(-1);
                    if (pool != paperBytes && !row[2].contains(dir.getFileName().toString())) {
                        unexplained.add(dir.getFileName() + " " + server + ": " + pool + " bytes");
                    }
                }
            }
        }
        assertTrue(checked >= 3, "committed InnoDB runs with an experiment.json: " + checked);
        assertEquals(
                List.of(),
                unexplained,
                "committed InnoDB runs whose buffer pool is not the paper's 4 GB and which the buffer pool row does"
                        + " not name as predating the setting");
    }

    private static List<Path> innoDbPaperConfigs() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(Path.of("config/experiments"))) {
            s.filter(p -> p.getFileName().toString().matches("ycsbivs_(mariadb_|scaled_mariadb).*\\.xml"))
                    .forEach(out::add);
        }
        try (Stream<Path> s = Files.list(Path.of("docs/repro"))) {
            s.map(d -> d.resolve("config.xml")).filter(Files::isRegularFile).forEach(out::add);
        }
        List<Path> innodb = new ArrayList<>();
        for (Path f : out) {
            if (Files.readString(f).contains("<engine>InnoDB</engine>")) {
                innodb.add(f);
            }
        }
        innodb.sort(null);
        return innodb;
    }

    private static String header(String xml) {
        int end = xml.indexOf("-->");
        return end < 0 ? "" : xml.substring(0, end).replaceAll("\\s+", " ");
    }
}
