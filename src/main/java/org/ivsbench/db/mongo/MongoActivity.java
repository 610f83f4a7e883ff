package org.ivsbench.db.mongo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.mongodb.client.MongoDatabase;
import org.bson.Document;

import org.ivsbench.db.ServerActivity;
import org.ivsbench.db.TargetException;

/**
 * MongoDB's activity snapshot: the active operations of {@code currentOp} (idle connections left out) with
 * their op, namespace, seconds running, whether they wait for a lock, and the command truncated. A server
 * without currentOp (the wire-protocol stand-in) yields a snapshot with only a note saying so.
 */
final class MongoActivity implements ServerActivity {
    private final MongoDatabase admin;

    MongoActivity(MongoDatabase admin) {
        this.admin = admin;
    }

    @Override
    public Map<String, Object> activity() throws TargetException {
        Map<String, Object> snapshot = new LinkedHashMap<>();
        Document result;
        try {
            result = admin.runCommand(new Document("currentOp", 1).append("active", true));
        } catch (RuntimeException e) {
            snapshot.put("note", "currentOp is not available on this server: " + e.getMessage());
            return snapshot;
        }
        List<Map<String, Object>> ops = new ArrayList<>();
        Object inprog = result.get("inprog");
        if (inprog instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Document op) {
                    ops.add(operation(op));
                }
            }
        }
        snapshot.put("operations", ops);
        return snapshot;
    }

    private static Map<String, Object> operation(Document op) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("opid", String.valueOf(op.get("opid")));
        row.put("connectionId", op.get("connectionId"));
        row.put("client", op.getString("client"));
        row.put("op", op.getString("op"));
        row.put("ns", op.getString("ns"));
        row.put("secsRunning", op.get("secs_running"));
        row.put("waitingForLock", op.get("waitingForLock"));
        Object command = op.get("command");
        row.put("command", ServerActivity.truncate(command instanceof Document d ? d.toJson() : null));
        return row;
    }
}
