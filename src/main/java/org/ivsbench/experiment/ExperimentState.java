package org.ivsbench.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * experiment.json: the experiment's settings and progress. {@code lastFinishedEpoch} is rewritten (atomically)
 * after every epoch; --resume continues after it in the newest experiment folder.
 */
final class ExperimentState {
    static final String FILE = "experiment.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path file;
    private final Map<String, Object> content;

    private ExperimentState(Path file, Map<String, Object> content) {
        this.file = file;
        this.content = content;
    }

    static ExperimentState create(Path dir, Map<String, Object> header) throws IOException {
        Map<String, Object> c = new LinkedHashMap<>(header);
        c.put("lastFinishedEpoch", 0);
        ExperimentState s = new ExperimentState(dir.resolve(FILE), c);
        s.write();
        return s;
    }

    static ExperimentState read(Path dir) throws IOException {
        Path f = dir.resolve(FILE);
        Map<String, Object> c = JSON.readValue(f.toFile(), new TypeReference<LinkedHashMap<String, Object>>() {});
        return new ExperimentState(f, c);
    }

    /** The newest {@code <prefix>_*} folder under {@code parent} holding an experiment.json, or null. */
    static Path newest(Path parent, String prefix) throws IOException {
        if (!Files.isDirectory(parent)) {
            return null;
        }
        try (Stream<Path> s = Files.list(parent)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix + "_"))
                    .filter(p -> Files.isRegularFile(p.resolve(FILE)))
                    .max(Comparator.comparing((Path p) -> {
                                try {
                                    return Files.getLastModifiedTime(p.resolve(FILE))
                                            .toMillis();
                                } catch (IOException e) {
                                    return 0L;
                                }
                            })
                            .thenComparing(p -> p.getFileName().toString()))
                    .orElse(null);
        }
    }

    int lastFinishedEpoch() {
        return ((Number) content.getOrDefault("lastFinishedEpoch", 0)).intValue();
    }

    Object get(String key) {
        return content.get(key);
    }

    /**
     * True when {@code spec} equals the stored spec except for {@code epochs}: a resume may continue an
     * experiment with more (or fewer) epochs, nothing else. The stored spec then takes the new value.
     */
    boolean sameSpecBesidesEpochs(Map<String, Object> spec) throws IOException {
        // Through text on both sides, so numbers compare as they read back (int vs long nodes).
        JsonNode stored = JSON.readTree(JSON.writeValueAsString(content.get("spec")));
        JsonNode given = JSON.readTree(JSON.writeValueAsString(spec));
        if (!(stored instanceof ObjectNode s) || !(given instanceof ObjectNode g)) {
            return false;
        }
        s.remove("epochs");
        g.remove("epochs");
        if (!stored.equals(given)) {
            return false;
        }
        content.put("spec", spec);
        return true;
    }

    /**
     * The names of the stored run settings (benchmark parameters, randomSeed, terminals) that differ from
     * {@code header}'s: a resume must continue the same experiment, so any of them is a refusal.
     */
    List<String> settingsDiffering(Map<String, Object> header) throws IOException {
        List<String> differing = new ArrayList<>();
        for (String key : List.of("randomSeed", "terminals")) {
            if (!sameJson(content.get(key), header.get(key))) {
                differing.add(key + " (was " + content.get(key) + ", now " + header.get(key) + ")");
            }
        }
        Map<?, ?> stored = content.get("parameters") instanceof Map<?, ?> m ? m : Map.of();
        Map<?, ?> given = header.get("parameters") instanceof Map<?, ?> m ? m : Map.of();
        TreeSet<Object> keys = new TreeSet<>(Comparator.comparing(String::valueOf));
        keys.addAll(stored.keySet());
        keys.addAll(given.keySet());
        for (Object key : keys) {
            if (!sameJson(stored.get(key), given.get(key))) {
                differing.add(key + " (was " + stored.get(key) + ", now " + given.get(key) + ")");
            }
        }
        return differing;
    }

    private static boolean sameJson(Object a, Object b) throws IOException {
        return JSON.readTree(JSON.writeValueAsString(a)).equals(JSON.readTree(JSON.writeValueAsString(b)));
    }

    /** The primary's record count and data bytes at the end of the last finished epoch; null if not stored. */
    long[] primaryAtLastEpoch() {
        if (content.get("primary") instanceof Map<?, ?> m
                && m.get("records") instanceof Number r
                && m.get("dataBytes") instanceof Number b) {
            return new long[] {r.longValue(), b.longValue()};
        }
        return null;
    }

    /** Records a resume whose primary differs from the stored end of the last finished epoch by {@code driftBytes}. */
    void resumedWithDrift(int epoch, long driftBytes) throws IOException {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("at", Instant.now().toString());
        entry.put("epoch", epoch);
        entry.put("primaryDataBytesDrift", driftBytes);
        @SuppressWarnings("unchecked")
        List<Object> list = content.get("resumesWithDrift") instanceof List<?> l ? (List<Object>) l : new ArrayList<>();
        list.add(entry);
        content.put("resumesWithDrift", list);
        write();
    }

    /**
     * Records the server settings ({@link ServerSettings}) of {@code role} ({@code primary} or
     * {@code freshInstance}) under {@code serverSettings}, with the settings where the fresh instance differs from
     * the primary ({@code differing}, when given).
     */
    void serverSettings(String role, Map<String, Object> settings, List<String> differing) throws IOException {
        @SuppressWarnings("unchecked")
        Map<String, Object> all =
                content.get("serverSettings") instanceof Map<?, ?> m ? (Map<String, Object>) m : new LinkedHashMap<>();
        all.put(role, settings);
        if (differing != null) {
            all.put("differing", differing);
        }
        content.put("serverSettings", all);
        write();
    }

    /**
     * Marks {@code epoch} finished (0: the load, when the experiment starts) with the primary as the next epoch
     * will find it ({@code records} records of
     * {@code dataBytes} bytes of values), which --resume checks the primary against.
     */
    void finished(int epoch, long records, long dataBytes) throws IOException {
        Map<String, Object> primary = new LinkedHashMap<>();
        primary.put("records", records);
        primary.put("dataBytes", dataBytes);
        content.put("primary", primary);
        content.put("lastFinishedEpoch", epoch);
        content.put("updated", Instant.now().toString());
        write();
    }

    private void write() throws IOException {
        Path tmp = file.resolveSibling(FILE + ".tmp");
        JSON.writeValue(tmp.toFile(), content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
