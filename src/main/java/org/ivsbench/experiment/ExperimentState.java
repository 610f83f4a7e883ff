package org.ivsbench.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

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
        Map<String, Object> c = JSON.readValue(f.toFile(), new TypeReference<LinkedHashMap<String, Object>>() {
        });
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
                            return Files.getLastModifiedTime(p.resolve(FILE)).toMillis();
                        } catch (IOException e) {
                            return 0L;
                        }
                    }).thenComparing(p -> p.getFileName().toString()))
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
        com.fasterxml.jackson.databind.JsonNode stored = JSON.readTree(JSON.writeValueAsString(content.get("spec")));
        com.fasterxml.jackson.databind.JsonNode given = JSON.readTree(JSON.writeValueAsString(spec));
        if (!(stored instanceof com.fasterxml.jackson.databind.node.ObjectNode s)
                || !(given instanceof com.fasterxml.jackson.databind.node.ObjectNode g)) {
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

    void finished(int epoch) throws IOException {
        content.put("lastFinishedEpoch", epoch);
        content.put("updated", java.time.Instant.now().toString());
        write();
    }

    private void write() throws IOException {
        Path tmp = file.resolveSibling(FILE + ".tmp");
        JSON.writeValue(tmp.toFile(), content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
