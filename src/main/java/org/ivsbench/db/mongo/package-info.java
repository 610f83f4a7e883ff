/**
 * The MongoDB target (mongodb-driver-sync): collections of documents {@code {_id: key, field0..field9: string}}.
 *
 * <h2>Mapping</h2>
 * The TableSpec's key column is {@code _id}. Field names are kept as the TableSpec gives them, except that with
 * option {@code lowercaseFields=true} (the default) {@code FIELDn} is stored as {@code fieldn}, so documents look
 * like YCSB's MongoDB binding's, and {@code fieldn} is reported back as {@code FIELDn}. Options are listed in
 * {@link MongoOptions}; an unknown option is an error.
 *
 * <h2>Extend</h2>
 * <ul>
 *   <li>CLIENT reads only the one field, appends on the client, and writes it back with
 *       {@code updateOne({_id: key, field: <value read>}, {$set: {field: grown}})}: the filter on the old value
 *       makes the read-modify-write safe against a concurrent extend (no lost append); when it matches nothing
 *       the extend reads again, up to {@link MongoSession#EXTEND_ATTEMPTS} times, then
 *       reports ABORTED "conflict". The price: the update carries the old value twice (filter and $set).</li>
 *   <li>A grown value longer than maxLength (UTF-8 bytes, as $strLenBytes counts) is SKIPPED "cap" and nothing is
 *       sent: never a $set of an empty or truncated value (the original YCSB-IVS binding wrote such fields back
 *       EMPTY).</li>
 *   <li>SERVER sends one {@code updateOne} with an aggregation pipeline ($concat) whose filter admits the document
 *       only while the grown value fits the cap; no match is then told apart as not found / cap by one lookup of
 *       the _id. Pipelines need MongoDB 4.2 (wire version 8): on an older server, or the stand-in, the target logs
 *       one warning and runs CLIENT instead, or, with {@code extendFallback=fail}, throws a TargetException saying
 *       "server does not support update pipelines". Support is decided from the server's maxWireVersion, not by
 *       guessing from error messages.</li>
 * </ul>
 *
 * <h2>The 16 MiB document limit</h2>
 * A write that would make a document larger than the server's maxBsonObjectSize is an OpResult ERROR
 * "document exceeds 16MB", never an exception. The client checks exactly for insert and insertBatch (the whole
 * document is known). For update and extend it knows only the fields it sends, so it checks a lower bound (the
 * key plus those fields): a document whose other fields push it over the limit is not caught on the client.
 * Against real MongoDB the server refuses it (codes 10334 BSONObjectTooLarge, 17419, 17420) and that is mapped
 * to the same ERROR; the mongo-java-server stand-in enforces no limit, so on it such a document simply grows.
 * The driver's own check (BsonMaximumSizeExceededException) is mapped too.
 *
 * <h2>Errors</h2>
 * MongoSocketException and MongoTimeoutException become TargetException with connectionLost=true; a duplicate key
 * on insert is ABORTED "duplicate key"; not found on read/update/delete/extend is ABORTED "not found"; everything
 * else is a TargetException. With writeConcern=unacknowledged the server reports nothing, so writes count as OK.
 *
 * <h2>Retries</h2>
 * The driver's retryable reads and writes are off unless the URL sets {@code retryReads=true} /
 * {@code retryWrites=true}: a network error is the operation's error, as on the JDBC targets.
 *
 * <h2>Server counters</h2>
 * The {@link StatusCounters} capability reads serverStatus and flattens each chosen value to its path joined by '.', spaces
 * replaced by '_': {@code opcounters.insert|query|update|delete|getmore|command}, {@code network.bytesIn|bytesOut|
 * numRequests}, {@code wiredTiger.cache.bytes_read_into_cache}, {@code ...bytes_written_from_cache},
 * {@code ...pages_read_into_cache}, {@code ...pages_written_from_cache}, {@code ...pages_requested_from_the_cache},
 * eviction counts, {@code wiredTiger.block-manager.bytes_read|bytes_written} (counters: take deltas), and the gauges
 * {@code connections.current}, {@code mem.resident} (MiB), {@code wiredTiger.cache.bytes_currently_in_the_cache},
 * {@code ...maximum_bytes_configured}, {@code ...tracked_dirty_bytes_in_the_cache}, the lock queues
 * {@code globalLock.currentQueue.*} and {@code globalLock.activeClients.*}, and the WiredTiger tickets
 * {@code wiredTiger.concurrentTransactions.read|write.out|available} (or {@code queues.execution.*} on MongoDB
 * 7.0 and later). Names the server does not
 * report are absent (the map is empty when serverStatus is not allowed).
 *
 * <h2>What the tests prove, and what the stand-in cannot</h2>
 * The tests run against de.bwaldvogel mongo-java-server with its H2 backend, as its own process
 * (scripts/mongo-standin.sh). They prove the document mapping, every record operation and its outcomes, that a
 * capped extend leaves the field byte-for-byte unchanged and sends no update command, the CLIENT extend's
 * arithmetic over many extends, determinism of the stored state, the client-side 16 MiB checks, the SERVER
 * extend's fallback and its fail mode, option parsing and connection-loss mapping. They do NOT prove:
 * <ul>
 *   <li>the SERVER extend's pipeline itself: the stand-in reports wire version 6 and cannot run $concat
 *       pipelines, so that code runs only against MongoDB 4.2+ (docker/);</li>
 *   <li>the counters' opcounters and wiredTiger names: the stand-in's serverStatus has neither (only
 *       connections.current), so the flattening is tested on a hand-made serverStatus document;</li>
 *   <li>the server's 16 MiB enforcement and the mapping of its error codes: the stand-in stores any size;</li>
 *   <li>anything about WiredTiger: cache behaviour, compression, eviction, document moves as values grow; the
 *       stand-in's timings say nothing about MongoDB's.</li>
 * </ul>
 */
package org.ivsbench.db.mongo;

import org.ivsbench.db.StatusCounters;
