package org.ivsbench.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The first line of a trace: format version, the tool version that wrote it, the SHA-256 of the run's (redacted)
 * config, the benchmark, seed and terminal count, and whether the stream was generated without a database
 * ({@code generate}: its reads carry no result hash, its records no outcome and no timing).
 */
public record TraceHeader(
        int format, String tool, String configDigest, String benchmark, long seed, int terminals, boolean generated) {
    /**
     * The format this build writes. Version 2 added {@code generated}; a version-1 file reads as a recorded one
     * (every read hashed), so this build reads both, and a version-1 reader refuses a generated trace rather than
     * take its missing hashes for differences.
     */
    public static final int FORMAT = 2;

    static final int OLDEST_READ = 1;

    static final String MAGIC = "ivsbench-trace";

    /** The header of a recorded run's trace. */
    public static TraceHeader of(String tool, String configDigest, String benchmark, long seed, int terminals) {
        return new TraceHeader(FORMAT, tool, configDigest, benchmark, seed, terminals, false);
    }

    /** The header of a stream generated without a database. */
    public static TraceHeader generated(String tool, String configDigest, String benchmark, long seed, int terminals) {
        return new TraceHeader(FORMAT, tool, configDigest, benchmark, seed, terminals, true);
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
        if (generated) {
            n.put("generated", true);
        }
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
        if (format < OLDEST_READ || format > FORMAT) {
            throw new TraceException("trace format version " + n.path("format").asText() + " is not supported (this"
                    + " build reads versions " + OLDEST_READ + " to " + FORMAT + ")");
        }
        return new TraceHeader(
                format,
                n.path("tool").asText(),
                n.path("configDigest").asText(),
                n.path("benchmark").asText(),
                n.path("seed").asLong(),
                n.path("terminals").asInt(),
                n.path("generated").asBoolean(false));
    }
}
