package org.ivsbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.testsupport.CliArgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Composite, variable-length keys loaded with a requested sortedness on SQLite, through the CLI: the test
 * reads the table back in insertion order (SQLite's rowid) and checks the keys' shape, lengths, per-prefix
 * counts and the sortedness of the insertion sequence, measured here by its own longest-increasing-run count.
 */
class KeyShapesCliTest {
    private static final int RECORDS = 5000;
    private static final double SORTEDNESS = 0.3;
    private static final int WINDOW = 500;
    private static final Pattern KEY = Pattern.compile("(tenant([0-3])/user([0-4])/)([0-9]{10})[a-z]*");

    @TempDir
    Path tmp;

    private String config(Path db) {
        return "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + db + "</url>"
                + "<terminals>1</terminals><randomSeed>11</randomSeed>"
                + "<recordcount>" + RECORDS + "</recordcount><fieldcount>2</fieldcount><fieldlength>10</fieldlength>"
                + "<keyorder>ordered</keyorder>"
                + "<keys><length>uniform(min=40, max=60)</length><prefix>tenant:4,user:5</prefix>"
                + "<prefixdistribution>hotspot(set=0.2, ops=0.8)</prefixdistribution>"
                + "<sortedness>" + SORTEDNESS + "</sortedness><displacement>" + WINDOW + "</displacement></keys>"
                + "<monitor><enabled>false</enabled></monitor>"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                + "<transactiontype><name>InsertRecord</name></transactiontype></transactiontypes>"
                + "<works><work><count>200</count><rate>unlimited</rate><weights>50,50</weights>"
                + "<distribution>uniform</distribution></work></works></parameters>";
    }

    @Test
    void loadsCompositeVariableLengthKeysInTheRequestedOrder() throws Exception {
        Path db = tmp.resolve("keys.db");
        Path cfg = tmp.resolve("keys.xml");
        Files.writeString(cfg, config(db));
        CliHarness.Result r = CliHarness.run(CliArgs.createLoadExecute(cfg, tmp.resolve("out")));
        assertEquals(0, r.code(), r.err());

        List<String> keys = keysInInsertionOrder(db);
        assertTrue(keys.size() > RECORDS, "the run inserted keys too: " + keys.size());
        List<String> loaded = keys.subList(0, RECORDS);
        long[] perPrefix = new long[20];
        long[] perLength = new long[21];
        for (String key : loaded) {
            Matcher m = KEY.matcher(key);
            assertTrue(m.matches(), key);
            assertTrue(Long.parseLong(m.group(4)) < RECORDS, key);
            perPrefix[Integer.parseInt(m.group(2)) * 5 + Integer.parseInt(m.group(3))]++;
            perLength[key.length() - 40]++;
        }
        for (String key : keys.subList(RECORDS, keys.size())) {
            Matcher m = KEY.matcher(key);
            assertTrue(m.matches() && Long.parseLong(m.group(4)) >= RECORDS, "inserted " + key);
            assertTrue(key.length() >= 40 && key.length() <= 60, key);
        }
        // hotspot(set=0.2, ops=0.8) over 20 prefixes: the first 4 hold 80 % of the keys, evenly.
        double[] prefixShare = new double[20];
        for (int p = 0; p < 20; p++) {
            prefixShare[p] = p < 4 ? 0.8 / 4 : 0.2 / 16;
        }
        assertFits("per-prefix counts " + Arrays.toString(perPrefix), prefixShare, perPrefix);
        double[] lengthShare = new double[21];
        Arrays.fill(lengthShare, 1.0 / 21);
        assertFits("key lengths", lengthShare, perLength);

        double k = (RECORDS - longestIncreasing(loaded)) / (double) RECORDS;
        assertEquals(SORTEDNESS, k, 0.05, "K of the loaded order");
        assertTrue(maxDisplacement(loaded) <= 1.25 * WINDOW, "L within the window: " + maxDisplacement(loaded));
        Matcher printed = Pattern.compile("Insert order: sortedness K=([0-9.]+) \\(requested 0\\.3000\\)")
                .matcher(r.out());
        assertTrue(printed.find(), r.out());
        assertEquals(k, Double.parseDouble(printed.group(1)), 0.00005, "printed K is the database's");
        JsonNode load = new ObjectMapper().readTree(loadJson(tmp.resolve("out")).toFile());
        assertEquals(k, load.path("insertOrder").path("k").asDouble(), 1e-12);
        assertEquals(RECORDS, load.path("insertOrder").path("keys").asLong());
    }

    private static void assertFits(String what, double[] share, long[] observed) {
        double p = ChiSquareTest.withDefaults().test(share, observed).getPValue();
        assertTrue(p > 0.001, what + ": chi-square p " + p);
    }

    /** The length of the longest run of keys in ascending (bytewise) order: TreeSet of run tails. */
    private static int longestIncreasing(List<String> keys) {
        TreeSet<String> tails = new TreeSet<>();
        for (String key : keys) {
            String above = tails.ceiling(key);
            if (above != null) {
                tails.remove(above);
            }
            tails.add(key);
        }
        return tails.size();
    }

    private static long maxDisplacement(List<String> keys) {
        List<String> sorted = new ArrayList<>(keys);
        sorted.sort(null);
        Map<String, Integer> rank = new HashMap<>();
        for (int i = 0; i < sorted.size(); i++) {
            rank.put(sorted.get(i), i);
        }
        long max = 0;
        for (int i = 0; i < keys.size(); i++) {
            max = Math.max(max, Math.abs(i - rank.get(keys.get(i))));
        }
        return max;
    }

    private static List<String> keysInInsertionOrder(Path db) throws SQLException {
        List<String> keys = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT YCSB_KEY FROM usertable ORDER BY rowid")) {
            while (rs.next()) {
                keys.add(rs.getString(1));
            }
        }
        return keys;
    }

    private static Path loadJson(Path out) throws IOException {
        try (Stream<Path> files = Files.walk(out)) {
            return files.filter(f -> f.getFileName().toString().equals("load.json"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no load.json under " + out));
        }
    }
}
