package org.ivsbench.bench.ycsb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;

/**
 * BenchBase's six YCSB transaction types, by the names its configs use, with its semantics: keys by the run's
 * Zipfian over the loaded keys, reads of all ten fields, updates and inserts of all ten fields with fresh
 * {@code fieldSize}-character values, a scan of the keys strictly between the chosen key and key + length.
 */
enum YcsbProcedure {
    ReadRecord {
        @Override
        OpResult run(YcsbTerminal.Context c) throws TargetException {
            return c.session().read(YcsbParameters.TABLE, c.existingKey(), c.fields(), new HashMap<>());
        }
    },
    InsertRecord {
        @Override
        OpResult run(YcsbTerminal.Context c) throws TargetException {
            long number = c.keys().inserts().next();
            try {
                return c.session().insert(YcsbParameters.TABLE, Long.toString(number), c.newValues());
            } finally {
                c.keys().inserts().acknowledge(number);
            }
        }
    },
    ScanRecord {
        @Override
        OpResult run(YcsbTerminal.Context c) throws TargetException {
            long start = Long.parseLong(c.existingKey());
            int length = c.scanLength();
            // BenchBase selects start < key < start + length: at most length - 1 rows, beginning after start.
            return c.session()
                    .scan(YcsbParameters.TABLE, Long.toString(start + 1), length - 1, c.fields(), new ArrayList<>());
        }
    },
    UpdateRecord {
        @Override
        OpResult run(YcsbTerminal.Context c) throws TargetException {
            String key = c.existingKey();
            return c.session().update(YcsbParameters.TABLE, key, c.newValues());
        }
    },
    DeleteRecord {
        @Override
        OpResult run(YcsbTerminal.Context c) throws TargetException {
            return c.session().delete(YcsbParameters.TABLE, c.existingKey());
        }
    },
    ReadModifyWriteRecord {
        @Override
        OpResult run(YcsbTerminal.Context c) throws TargetException {
            String key = c.existingKey();
            Map<String, String> read = new LinkedHashMap<>();
            OpResult first = c.session().read(YcsbParameters.TABLE, key, c.fields(), read);
            if (!first.isOk()) {
                return first;
            }
            OpResult write = c.session().update(YcsbParameters.TABLE, key, c.newValues());
            return new OpResult(
                    write.outcome(), write.reason(), first.bytesRead() + write.bytesRead(), write.bytesWritten());
        }
    };

    abstract OpResult run(YcsbTerminal.Context context) throws TargetException;

    static List<String> names() {
        List<String> names = new ArrayList<>();
        for (YcsbProcedure p : values()) {
            names.add(p.name());
        }
        return List.copyOf(names);
    }

    static Optional<YcsbProcedure> byName(String name) {
        for (YcsbProcedure p : values()) {
            if (p.name().equals(name)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
