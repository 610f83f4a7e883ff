package org.ivsbench.bench.ycsbivs.procedures;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The ycsbivs transaction types by name. Procedures are stateless and shared. */
public final class Procedures {
    private static final Map<String, Procedure> BY_NAME = byName(List.of(
            new ReadRecord(),
            new ExtendRecord(),
            new UpdateRecord(),
            new InsertRecord(),
            new ScanRecord(),
            new DeleteRecord(),
            new ReadModifyWriteRecord(),
            new EmptyReadRecord(),
            new EmptyDeleteRecord(),
            new RangeReadRecord(),
            new RangeDeleteRecord(),
            new RangeReadByKeysRecord()));

    private static Map<String, Procedure> byName(List<Procedure> procedures) {
        Map<String, Procedure> map = new LinkedHashMap<>();
        procedures.forEach(p -> map.put(p.name(), p));
        return Collections.unmodifiableMap(map);
    }

    private Procedures() {}

    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    public static Optional<Procedure> byName(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }
}
