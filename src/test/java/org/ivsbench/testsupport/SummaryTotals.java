package org.ivsbench.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The end-of-run totals of a summary.json, read with a plain JSON reader, keyed as the metrics endpoint labels them:
 * {@code ops|phase|type|outcome}, {@code missed|phase}, {@code warmup|phase}, {@code count|phase|type} (operations of
 * a type, what its response-time histogram's {@code _count} must be).
 */
public final class SummaryTotals {
    private SummaryTotals() {}

    public static Map<String, Long> of(Path summaryJson) throws IOException {
        JsonNode root = new ObjectMapper().readTree(summaryJson.toFile());
        Map<String, Long> m = new TreeMap<>();
        for (JsonNode phase : root.get("phases")) {
            String p = phase.get("name").asText();
            m.put("missed|" + p, phase.get("missed").asLong());
            m.put("warmup|" + p, phase.get("warmupOperations").asLong());
            Iterator<Map.Entry<String, JsonNode>> types =
                    phase.get("transactions").fields();
            while (types.hasNext()) {
                Map.Entry<String, JsonNode> t = types.next();
                m.put(
                        "count|" + p + "|" + t.getKey(),
                        t.getValue().get("operations").asLong());
                Iterator<Map.Entry<String, JsonNode>> counts =
                        t.getValue().get("counts").fields();
                while (counts.hasNext()) {
                    Map.Entry<String, JsonNode> c = counts.next();
                    m.put(
                            "ops|" + p + "|" + t.getKey() + "|" + c.getKey(),
                            c.getValue().asLong());
                }
            }
        }
        return m;
    }
}
