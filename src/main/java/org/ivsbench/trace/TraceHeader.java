package org.ivsbench.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The first line of a trace: format version, the tool version that wrote it, the SHA-256 of the run's (redacted)
 * config, the benchmark, seed and terminal count.
 */
public record TraceHeader(int format, String tool, String configDigest, String benchmark, long seed, int terminals) {
    /** The format this build writes and the only one it reads. */
    public static final int FORMAT = 1;

    static final String MAGIC = "ivsbench-trace";

    public static TraceHeader of(String tool, String configDigest, String benchmark, long seed, int terminals) {
        return new TraceHeader(FORMAT, tool, configDigest, benchmark, seed, terminals);
    }

    String toJson() {
        ObjectNode n = TraceWriter.JSON.createObjectNode();
        n.put("trace", MAGIC);
        n.put("format", format);
        n.put("tool", tool);
        n.put("configDigest", configDigest);
        n.put("benchmark", benchmark);
        n.put("seed", seed);
        n.put("terminals", terminals);
        try {
            return TraceWriter.JSON.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static TraceHeader fromJson(JsonNode n) throws TraceException {
        if (n == null || !n.isObject() || !MAGIC.equals(n.path("trace").asText())) {
            throw new TraceException("not an ivsbench trace (no header line)");
        }
        int format = n.path("format").asInt(-1);
        if (format != FORMAT) {
            throw new TraceException("trace format version " + n.path("format").asText() + " is not supported (this"
                    + " build reads version " + FORMAT + ")");
        }
        return new TraceHeader(
                format,
                n.path("tool").asText(),
                n.path("configDigest").asText(),
                n.path("benchmark").asText(),
                n.path("seed").asLong(),
                n.path("terminals").asInt());
    }
}
