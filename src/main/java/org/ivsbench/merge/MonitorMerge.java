package org.ivsbench.merge;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * monitor.csv once per host it describes: every shard samples the database host (rows with source {@code local}
 * or {@code agent}) or its own (source {@code client}); shards that describe the same host have the same rows, so
 * one shard's file is kept per host: the first host's as monitor.csv, any other as monitor-&lt;host&gt;.csv.
 */
final class MonitorMerge {
    private static final ObjectMapper JSON = new ObjectMapper();

    private MonitorMerge() {}

    static void write(List<ShardFolder> shards, Path dir) throws IOException {
        Map<String, Path> byHost = new LinkedHashMap<>();
        for (ShardFolder f : shards) {
            Path monitor = f.dir().resolve("monitor.csv");
            if (Files.isRegularFile(monitor)) {
                byHost.putIfAbsent(describedHost(f.dir(), monitor), monitor);
            }
        }
        boolean first = true;
        for (Map.Entry<String, Path> e : byHost.entrySet()) {
            String name = first ? "monitor.csv" : "monitor-" + e.getKey().replaceAll("[^A-Za-z0-9._-]", "_") + ".csv";
            Files.copy(e.getValue(), dir.resolve(name));
            first = false;
        }
    }

    /** "agent" for rows from the database host's agent (the same for every shard), else the client's host name. */
    private static String describedHost(Path dir, Path monitor) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(monitor, StandardCharsets.UTF_8)) {
            r.readLine();
            String row = r.readLine();
            String[] c = row == null ? new String[0] : row.split(",", -1);
            if (c.length > 3 && c[3].equals("agent")) {
                return "agent";
            }
        }
        Path env = dir.resolve("environment.json");
        if (Files.isRegularFile(env)) {
            JsonNode host = JSON.readTree(env.toFile()).path("host").path("name");
            if (host.isTextual()) {
                return host.asText();
            }
        }
        return dir.getFileName().toString();
    }
}
