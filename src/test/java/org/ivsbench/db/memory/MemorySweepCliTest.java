package org.ivsbench.db.memory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.cli.Main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The top of the paper's thread range: one sweep point with 512 terminals (512 worker threads and sessions) on
 * the MEMORY kind, so the engine, not a database's connection limit, is what is tested.
 */
class MemorySweepCliTest {
    @TempDir
    Path tmp;

    @Test
    void aPointWith512TerminalsCompletesItsCount() throws Exception {
        String xml = Files.readString(Path.of("config/sweeps/ycsb_a_sqlite_quick.xml"))
                .replace("<type>SQLITE</type>", "<type>MEMORY</type>")
                .replace("jdbc:sqlite:results/ycsb_a_sqlite_quick.db", "memory:sweep512")
                .replaceAll("<recordcount>\\d+</recordcount>", "<recordcount>1000</recordcount>")
                .replaceAll(
                        "<sweep>[\\s\\S]*</sweep>",
                        "<sweep><terminals>512</terminals><counts>5000</counts>" + "<trials>1</trials></sweep>");
        Path config = tmp.resolve("memory.xml");
        Files.writeString(config, xml);
        Path results = tmp.resolve("results");

        assertEquals(
                0,
                cli(
                        "-b",
                        "ycsbivs",
                        "-c",
                        config.toString(),
                        "--create",
                        "--load",
                        "--execute",
                        "-d",
                        results.toString()));

        Path sweep;
        try (Stream<Path> s = Files.list(results)) {
            sweep = s.findFirst().orElseThrow();
        }
        List<String> rows = Files.readAllLines(sweep.resolve("sweep.csv"));
        assertEquals(2, rows.size(), rows.toString());
        String[] row = rows.get(1).split(",", -1);
        assertEquals("MEMORY", row[0]);
        assertEquals("512", row[3], "terminals");
        assertEquals("5000", row[7], "operations");
        assertEquals("0", row[15], "errors");
        assertTrue(Files.isRegularFile(sweep.resolve("t512-n5000-trial1/summary.json")));
    }

    private static int cli(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            return Main.execute(args);
        } finally {
            System.setOut(old);
            System.out.print(out.toString(StandardCharsets.UTF_8));
        }
    }
}
