package org.ivsbench.bench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a load did: records and value bytes written, and how long it took. {@code notes} are lines for the
 * console and {@code details} the same facts for load.json (e.g. the measured sortedness of the insert
 * order); both empty for a plain load.
 */
public record LoadReport(
        long records, long bytes, long elapsedMillis, List<String> notes, Map<String, Object> details) {

    public LoadReport {
        notes = List.copyOf(notes);
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details)); // in the order given, for load.json
    }

    public LoadReport(long records, long bytes, long elapsedMillis) {
        this(records, bytes, elapsedMillis, List.of(), Map.of());
    }
}
