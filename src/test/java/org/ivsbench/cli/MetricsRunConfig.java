package org.ivsbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SQLite YCSB config of the metrics tests: a phase "warm" (1 s warmup, then 1 s at 400/s) and a phase "count"
 * (300 operations, unlimited), so both the warmup and two phases' labels are seen.
 */
final class MetricsRunConfig {
    private MetricsRunConfig() {}

    /** Writes {@code dir/c.xml} with the database {@code dir/o.db} and {@code extra} elements; returns its path. */
    static Path write(Path dir, String extra) throws IOException {
        String xml = Files.readString(Path.of("config/sqlite/sample_ycsb_config.xml"))
                .replace(
                        "jdbc:sqlite:results/ycsb.db",
                        "jdbc:sqlite:" + dir.resolve("o.db").toAbsolutePath())
                .replace(
                        "<works>\n        <work>\n            <time>60</time>\n            <rate>10000</rate>\n",
                        "<works>\n        <work>\n            <name>warm</name>\n            <time>2</time>\n"
                                + "            <warmup>1</warmup>\n            <rate>400</rate>\n")
                .replace(
                        "        </work>\n    </works>",
                        "        </work>\n        <work>\n            <name>count</name>\n"
                                + "            <count>300</count>\n            <rate>unlimited</rate>\n"
                                + "            <weights>50,5,15,10,10,10</weights>\n        </work>\n    </works>")
                .replace("</parameters>", extra + "</parameters>");
        assertTrue(xml.contains("<name>count</name>") && xml.contains("<name>warm</name>"), xml);
        Path f = dir.resolve("c.xml");
        Files.writeString(f, xml);
        return f;
    }
}
