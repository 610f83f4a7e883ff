package org.ivsbench.bench.ycsbivs.procedures;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The seven ycsbivs transaction types by name. Procedures are stateless and shared. */
public final class Procedures {
    private static final Map<String, Procedure> BY_NAME = new LinkedHashMap<>();

    static {
        for (Procedure p : List.of(new ReadRecord(), new ExtendRecord(), new UpdateRecord(), new InsertRecord(),
                new ScanRecord(), new DeleteRecord(), new ReadModifyWriteRecord())) {
            BY_NAME.put(p.name(), p);
        }
    }

    private Procedures() {
    }

    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    public static Optional<Procedure> byName(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }
}
