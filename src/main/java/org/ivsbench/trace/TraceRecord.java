package org.ivsbench.trace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/** One record operation of a trace, as read back (docs/trace.md lists the fields). */
record TraceRecord(
        int terminal,
        long seq,
        int phase,
        long offsetNanos,
        TraceOp op,
        String table,
        String key,
        List<String> fields,
        int count,
        String end,
        Map<String, String> values,
        String field,
        String suffix,
        long max,
        String method,
        String outcome,
        String hash) {

    static TraceRecord fromJson(JsonNode n) {
        String code = n.get("op").asText();
        TraceOp op;
        try {
            op = TraceOp.valueOf(code.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown operation '" + code + "'", e);
        }
        List<String> fields = null;
        if (n.has("fields")) {
            fields = new ArrayList<>();
            for (JsonNode f : n.get("fields")) {
                fields.add(f.asText());
            }
        }
        Map<String, String> values = null;
        if (n.has("values")) {
            values = new LinkedHashMap<>();
            Map<String, String> v = values;
            n.get("values")
                    .fields()
                    .forEachRemaining(e -> v.put(e.getKey(), e.getValue().asText()));
        }
        return new TraceRecord(
                n.get("t").asInt(),
                n.get("s").asLong(),
                n.path("p").asInt(),
                n.get("o").asLong(),
                op,
                n.get("table").asText(),
                n.get("key").asText(),
                fields,
                n.path("n").asInt(),
                n.path("end").asText(null),
                values,
                n.path("field").asText(null),
                n.path("suffix").asText(null),
                n.path("max").asLong(),
                n.path("method").asText(null),
                n.path("outcome").asText(),
                n.path("hash").asText(null));
    }
}
