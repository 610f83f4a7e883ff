package org.ivsbench.db.mongo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import com.mongodb.client.result.DeleteResult;
import com.mongodb.client.result.UpdateResult;
import org.bson.Document;
import org.bson.conversions.Bson;

import org.ivsbench.db.ExtendMethod;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.TargetException;
import org.ivsbench.op.OpResult;
import org.ivsbench.op.Outcome;

/**
 * Record operations on the target's shared client. Holds no connection of its own (the driver checks one out
 * of its pool per operation), so opening and closing sessions is free.
 *
 * <p>With writeConcern=unacknowledged the server says nothing back: a write is counted as OK without knowing
 * whether it matched, and a CLIENT extend cannot detect a concurrent change.
 */
final class MongoSession implements Session {
    /**
     * A CLIENT extend whose guarded write matched nothing lost a race with another writer of that field; it
     * reads again and retries this many times in all before reporting ABORTED "conflict".
     */
    static final int EXTEND_ATTEMPTS = 5;

    private final MongoTarget target;
    private final FieldNames names;

    MongoSession(MongoTarget target) {
        this.target = target;
        this.names = target.names();
    }

    @Override
    public OpResult read(String table, String key, List<String> fields, Map<String, String> out)
            throws TargetException {
        try {
            Document doc = target.collection(table)
                    .find(Filters.eq(FieldNames.ID, key))
                    .projection(projection(fields))
                    .first();
            if (doc == null) {
                return OpResult.aborted("not found");
            }
            return OpResult.ok(copyFields(doc, out), 0);
        } catch (RuntimeException e) {
            throw MongoErrors.failure("read", e);
        }
    }

    @Override
    public OpResult scan(String table, String startKey, int count, List<String> fields, List<Map<String, String>> out)
            throws TargetException {
        if (count <= 0) {
            return OpResult.ok(); // limit(0) would mean "no limit" to MongoDB
        }
        return rows(
                target.collection(table)
                        .find(Filters.gte(FieldNames.ID, startKey))
                        .sort(Sorts.ascending(FieldNames.ID))
                        .limit(count)
                        .projection(projection(fields)),
                "scan",
                out);
    }

    @Override
    public OpResult scanBetween(
            String table, String startKey, String endKey, List<String> fields, List<Map<String, String>> out)
            throws TargetException {
        return rows(
                target.collection(table)
                        .find(Filters.and(Filters.gte(FieldNames.ID, startKey), Filters.lte(FieldNames.ID, endKey)))
                        .sort(Sorts.ascending(FieldNames.ID))
                        .projection(projection(fields)),
                "scan between",
                out);
    }

    /** Adds a range query's documents to {@code out} as rows; OK with the bytes read. */
    private OpResult rows(FindIterable<Document> find, String operation, List<Map<String, String>> out)
            throws TargetException {
        long bytes = 0;
        try (MongoCursor<Document> cursor = find.iterator()) {
            while (cursor.hasNext()) {
                Map<String, String> row = new LinkedHashMap<>();
                bytes += copyFields(cursor.next(), row);
                out.add(row);
            }
        } catch (RuntimeException e) {
            throw MongoErrors.failure(operation, e);
        }
        return OpResult.ok(bytes, 0);
    }

    @Override
    public OpResult update(String table, String key, Map<String, String> values) throws TargetException {
        if (values.isEmpty()) {
            return OpResult.ok();
        }
        Map<String, String> stored = storedFields(values);
        // Only a lower bound of the new document is known without reading it: the key plus the fields set
        // (see package-info); a real server refuses the rest with code 17419.
        if (BsonSizes.document(key, stored) > target.maxBsonObjectSize()) {
            return OpResult.error(MongoErrors.TOO_LARGE);
        }
        List<Bson> sets = new ArrayList<>(stored.size());
        for (Map.Entry<String, String> e : stored.entrySet()) {
            sets.add(Updates.set(e.getKey(), e.getValue()));
        }
        long bytes = valueBytes(values);
        try {
            UpdateResult r = target.collection(table).updateOne(Filters.eq(FieldNames.ID, key), Updates.combine(sets));
            if (r.wasAcknowledged() && r.getMatchedCount() == 0) {
                return OpResult.aborted("not found");
            }
            return OpResult.ok(0, bytes);
        } catch (RuntimeException e) {
            if (MongoErrors.isTooLarge(e)) {
                return OpResult.error(MongoErrors.TOO_LARGE);
            }
            throw MongoErrors.failure("update", e);
        }
    }

    @Override
    public OpResult insert(String table, String key, Map<String, String> values) throws TargetException {
        if (BsonSizes.document(key, storedFields(values)) > target.maxBsonObjectSize()) {
            return OpResult.error(MongoErrors.TOO_LARGE);
        }
        try {
            target.collection(table).insertOne(document(key, values));
            return OpResult.ok(0, valueBytes(values));
        } catch (RuntimeException e) {
            if (MongoErrors.isDuplicateKey(e)) {
                return OpResult.aborted("duplicate key");
            }
            if (MongoErrors.isTooLarge(e)) {
                return OpResult.error(MongoErrors.TOO_LARGE);
            }
            throw MongoErrors.failure("insert", e);
        }
    }

    @Override
    public OpResult delete(String table, String key) throws TargetException {
        try {
            DeleteResult r = target.collection(table).deleteOne(Filters.eq(FieldNames.ID, key));
            if (r.wasAcknowledged() && r.getDeletedCount() == 0) {
                return OpResult.aborted("not found");
            }
            return OpResult.ok();
        } catch (RuntimeException e) {
            throw MongoErrors.failure("delete", e);
        }
    }

    /**
     * The last key of the range is found first (an index-only read of at most {@code count} ids), then one
     * deleteMany removes [startKey, last]; a record inserted into that key range in between goes with it.
     */
    @Override
    public OpResult deleteRange(String table, String startKey, int count, LongConsumer deleted) throws TargetException {
        if (count <= 0) {
            deleted.accept(0);
            return OpResult.aborted("not found");
        }
        try {
            MongoCollection<Document> collection = target.collection(table);
            String last = null;
            try (MongoCursor<Document> ids = collection
                    .find(Filters.gte(FieldNames.ID, startKey))
                    .sort(Sorts.ascending(FieldNames.ID))
                    .limit(count)
                    .projection(Projections.include(FieldNames.ID))
                    .iterator()) {
                while (ids.hasNext()) {
                    last = ids.next().getString(FieldNames.ID);
                }
            }
            if (last == null) {
                deleted.accept(0);
                return OpResult.aborted("not found");
            }
            return deleteMany(collection, startKey, last, deleted);
        } catch (RuntimeException e) {
            throw MongoErrors.failure("range delete", e);
        }
    }

    @Override
    public OpResult deleteBetween(String table, String startKey, String endKey, LongConsumer deleted)
            throws TargetException {
        try {
            return deleteMany(target.collection(table), startKey, endKey, deleted);
        } catch (RuntimeException e) {
            throw MongoErrors.failure("range delete between keys", e);
        }
    }

    /** One deleteMany of [first, last]; the count goes to {@code deleted}, none deleted is "not found". */
    private static OpResult deleteMany(
            MongoCollection<Document> collection, String first, String last, LongConsumer deleted) {
        DeleteResult r =
                collection.deleteMany(Filters.and(Filters.gte(FieldNames.ID, first), Filters.lte(FieldNames.ID, last)));
        long rows = r.wasAcknowledged() ? r.getDeletedCount() : 0;
        deleted.accept(rows);
        return r.wasAcknowledged() && rows == 0 ? OpResult.aborted("not found") : OpResult.ok();
    }

    @Override
    public OpResult extend(String table, String key, String field, String suffix, long maxLength, ExtendMethod method)
            throws TargetException {
        String name = names.toDocument(field);
        if (method == ExtendMethod.SERVER) {
            if (target.supportsPipelines()) {
                return extendOnServer(table, key, name, suffix, maxLength);
            }
            if (target.options().extendFallback() == MongoOptions.ExtendFallback.FAIL) {
                throw new TargetException(MongoTarget.NO_PIPELINES
                        + "; a server-side extend cannot run (extendFallback=fail; extend on the client, set "
                        + "extendFallback=client, or use MongoDB 4.2+)");
            }
            target.warnPipelineFallbackOnce();
        }
        return extendOnClient(table, key, name, suffix, maxLength, method != ExtendMethod.CLIENT_PLAIN);
    }

    /**
     * Read only the one field, append here, and write it back guarded by the value read: if another writer
     * changed the field in between, the guard matches nothing and we read again, so no append is ever lost.
     * A capped or oversized result sends nothing at all: the original YCSB-IVS binding wrote such a field
     * back EMPTY, which is data loss, not a skip. Unguarded ({@link ExtendMethod#CLIENT_PLAIN}, the paper's
     * binding) the write matches the key alone and the old value is not sent back.
     */
    private OpResult extendOnClient(
            String table, String key, String name, String suffix, long maxLength, boolean guarded)
            throws TargetException {
        MongoCollection<Document> collection = target.collection(table);
        long suffixBytes = BsonSizes.utf8Length(suffix);
        long bytesRead = 0;
        long bytesWritten = 0;
        try {
            for (int attempt = 0; attempt < EXTEND_ATTEMPTS; attempt++) {
                Document doc = collection
                        .find(Filters.eq(FieldNames.ID, key))
                        .projection(Projections.include(name))
                        .first();
                if (doc == null) {
                    return OpResult.aborted("not found");
                }
                Object current = doc.get(name);
                if (current != null && !(current instanceof String)) {
                    return OpResult.error("field is not a string");
                }
                String old = (String) current;
                long oldBytes = BsonSizes.utf8Length(old);
                bytesRead += oldBytes;
                long newBytes = oldBytes + suffixBytes;
                if (newBytes > maxLength) {
                    return new OpResult(Outcome.SKIPPED, "cap", bytesRead, 0, oldBytes);
                }
                // Only this field is known here; the other fields count on the server (see package-info).
                if (BsonSizes.minimalDocumentWith(key, name, newBytes) > target.maxBsonObjectSize()) {
                    return OpResult.error(MongoErrors.TOO_LARGE);
                }
                Bson guard = guarded
                        ? Filters.and(
                                Filters.eq(FieldNames.ID, key),
                                old == null ? Filters.exists(name, false) : Filters.eq(name, old))
                        : Filters.eq(FieldNames.ID, key);
                String grown = old == null ? suffix : old.concat(suffix);
                UpdateResult r = collection.updateOne(guard, Updates.set(name, grown));
                // Sent: the old value as the guard (when guarded) and the grown one, on every attempt.
                bytesWritten += (guarded ? oldBytes : 0) + newBytes;
                if (!r.wasAcknowledged() || r.getMatchedCount() == 1) {
                    return new OpResult(Outcome.OK, null, bytesRead, bytesWritten, newBytes);
                }
            }
            return new OpResult(Outcome.ABORTED, "conflict", bytesRead, bytesWritten);
        } catch (RuntimeException e) {
            if (MongoErrors.isTooLarge(e)) {
                return OpResult.error(MongoErrors.TOO_LARGE);
            }
            throw MongoErrors.failure("extend", e);
        }
    }

    /**
     * One guarded append on the server (MongoDB 4.2+): the filter admits the document only while the grown
     * value fits the cap, so a capped extend matches nothing and changes nothing. The suffix goes in as a
     * $literal because a value starting with '$' would otherwise be read as a field path. A missing field
     * counts as "" (as in the client path) instead of making $strLenBytes fail.
     */
    private OpResult extendOnServer(String table, String key, String name, String suffix, long maxLength)
            throws TargetException {
        MongoCollection<Document> collection = target.collection(table);
        long suffixBytes = BsonSizes.utf8Length(suffix);
        try {
            UpdateResult r = collection.updateOne(
                    serverExtendFilter(key, name, suffixBytes, maxLength), serverExtendPipeline(name, suffix));
            if (!r.wasAcknowledged() || r.getMatchedCount() == 1) {
                return OpResult.ok(0, suffixBytes);
            }
            boolean exists = collection
                            .find(Filters.eq(FieldNames.ID, key))
                            .projection(Projections.include(FieldNames.ID))
                            .first()
                    != null;
            // The suffix was sent even though the filter refused it: bytes count what went to the server.
            return exists
                    ? new OpResult(Outcome.SKIPPED, "cap", 0, suffixBytes)
                    : new OpResult(Outcome.ABORTED, "not found", 0, suffixBytes);
        } catch (RuntimeException e) {
            if (MongoErrors.isTooLarge(e)) {
                return OpResult.error(MongoErrors.TOO_LARGE);
            }
            throw MongoErrors.failure("extend", e);
        }
    }

    /** {_id: key, $expr: {$lte: [{$add: [{$strLenBytes: <field or "">}, suffixBytes]}, maxLength]}} */
    static Bson serverExtendFilter(String key, String name, long suffixBytes, long maxLength) {
        return Filters.and(
                Filters.eq(FieldNames.ID, key),
                Filters.expr(new Document(
                        "$lte",
                        List.of(
                                new Document(
                                        "$add", List.of(new Document("$strLenBytes", fieldOrEmpty(name)), suffixBytes)),
                                maxLength))));
    }

    /** [{$set: {field: {$concat: [<field or "">, {$literal: suffix}]}}}] */
    static List<Bson> serverExtendPipeline(String name, String suffix) {
        return List.of(new Document(
                "$set",
                new Document(
                        name, new Document("$concat", List.of(fieldOrEmpty(name), new Document("$literal", suffix))))));
    }

    private static Document fieldOrEmpty(String name) {
        return new Document("$ifNull", List.of("$" + name, ""));
    }

    @Override
    public void insertBatch(String table, List<Record> records) throws TargetException {
        if (records.isEmpty()) {
            return;
        }
        List<Document> docs = new ArrayList<>(records.size());
        for (Record rec : records) {
            if (BsonSizes.document(rec.key(), storedFields(rec.fields())) > target.maxBsonObjectSize()) {
                throw new TargetException(MongoErrors.TOO_LARGE + ": record " + rec.key() + " (batch not sent)");
            }
            docs.add(document(rec.key(), rec.fields()));
        }
        try {
            // Unordered: the server may apply the batch in parallel, and one bad record does not stop the rest.
            target.collection(table).insertMany(docs, new InsertManyOptions().ordered(false));
        } catch (MongoBulkWriteException e) {
            String why = MongoErrors.isDuplicateKey(e) ? "duplicate key" : e.getMessage();
            throw new TargetException(
                    "MongoDB insertMany: " + e.getWriteErrors().size() + " of " + docs.size()
                            + " records not inserted (" + why + "); the others were inserted",
                    e,
                    false);
        } catch (RuntimeException e) {
            throw MongoErrors.failure("insertMany", e);
        }
    }

    @Override
    public void close() {
        // Nothing to release: the client and its pool belong to the target.
    }

    // ---- helpers

    private Bson projection(List<String> fields) {
        if (fields == null) {
            return null;
        }
        if (fields.isEmpty()) {
            return Projections.include(FieldNames.ID);
        }
        List<String> stored = new ArrayList<>(fields.size());
        for (String f : fields) {
            stored.add(names.toDocument(f));
        }
        return Projections.include(stored);
    }

    /** Copies every non-key field under the caller's names; returns the bytes of the values. */
    private long copyFields(Document doc, Map<String, String> out) {
        long bytes = 0;
        for (Map.Entry<String, Object> e : doc.entrySet()) {
            if (FieldNames.ID.equals(e.getKey())) {
                continue;
            }
            String value = String.valueOf(e.getValue());
            bytes += BsonSizes.utf8Length(value);
            out.put(names.fromDocument(e.getKey()), value);
        }
        return bytes;
    }

    private Document document(String key, Map<String, String> values) {
        Document doc = new Document(FieldNames.ID, key);
        for (Map.Entry<String, String> e : values.entrySet()) {
            doc.append(names.toDocument(e.getKey()), e.getValue());
        }
        return doc;
    }

    private Map<String, String> storedFields(Map<String, String> values) {
        Map<String, String> stored = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            stored.put(names.toDocument(e.getKey()), e.getValue());
        }
        return stored;
    }

    private static long valueBytes(Map<String, String> values) {
        long bytes = 0;
        for (String v : values.values()) {
            bytes += BsonSizes.utf8Length(v);
        }
        return bytes;
    }
}
