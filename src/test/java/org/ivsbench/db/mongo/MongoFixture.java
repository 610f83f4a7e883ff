package org.ivsbench.db.mongo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;

import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.Record;
import org.ivsbench.db.TableSpec;
import org.ivsbench.db.TargetException;
import org.ivsbench.testsupport.TestServers;

/**
 * A MongoTarget on the stand-in (TestServers.mongoUrl(), started as its own process by scripts/) that records
 * every command its client sends and every warning it would log.
 */
final class MongoFixture implements AutoCloseable {
    static final List<String> FIELDS =
            List.of("FIELD0", "FIELD1", "FIELD2", "FIELD3", "FIELD4", "FIELD5", "FIELD6", "FIELD7", "FIELD8", "FIELD9");

    final List<String> commands = new CopyOnWriteArrayList<>();
    final List<String> warnings = new CopyOnWriteArrayList<>();
    final MongoTarget target;
    private final List<String> tables = new ArrayList<>();

    MongoFixture() throws TargetException {
        this(Map.of());
    }

    MongoFixture(Map<String, String> options) throws TargetException {
        TargetConfig base = TestServers.mongo();
        TargetConfig config = new TargetConfig(
                base.type(),
                base.driver(),
                base.url(),
                base.username(),
                base.password(),
                base.isolation(),
                base.reconnectOnConnectionFailure(),
                options);
        CommandListener listener = new CommandListener() {
            @Override
            public void commandStarted(CommandStartedEvent event) {
                commands.add(event.getCommandName());
            }
        };
        target =
                MongoTarget.open(config, new MongoTarget.TestHooks(b -> b.addCommandListener(listener), warnings::add));
    }

    /** A fresh collection with a name no other test (or concurrent test run) uses. */
    TableSpec table(String purpose) throws TargetException {
        String name = "t_" + purpose + "_" + Long.toHexString(System.nanoTime());
        TableSpec spec = new TableSpec(name, "YCSB_KEY", FIELDS, 1_600_000, null);
        target.createTable(spec);
        tables.add(name);
        return spec;
    }

    static Map<String, String> fields(String key, int length) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < FIELDS.size(); i++) {
            values.put(FIELDS.get(i), value(key + "/" + i, length));
        }
        return values;
    }

    /** Deterministic printable value of exactly {@code length} ASCII bytes. */
    static String value(String seed, int length) {
        StringBuilder sb = new StringBuilder(length);
        long h = seed.hashCode() * 0x9E3779B97F4A7C15L;
        while (sb.length() < length) {
            h ^= h >>> 29;
            h *= 0xBF58476D1CE4E5B9L;
            sb.append((char) ('!' + Math.floorMod(h, 94)));
        }
        return sb.toString();
    }

    static List<Record> records(int count, int length) {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String key = key(i);
            records.add(new Record(key, fields(key, length)));
        }
        return records;
    }

    static String key(int i) {
        return String.format("user%04d", i);
    }

    /** Every record as the target streams it. */
    Map<String, Map<String, String>> contents(String table) throws TargetException {
        Map<String, Map<String, String>> all = new LinkedHashMap<>();
        target.forEachRecord(table, r -> all.put(r.key(), new HashMap<>(r.fields())));
        return all;
    }

    @Override
    public void close() {
        for (String t : tables) {
            try {
                target.dropTable(t);
            } catch (TargetException e) {
                // best effort: the stand-in's state is thrown away by scripts/ anyway
            }
        }
        target.close();
    }
}
