/**
 * The database layer: what every part above it may know of a database.
 *
 * <ul>
 * <li>{@link Target} and {@link Session}: tables of string records and the
 * record operations, the same for every database.</li>
 * <li>Capabilities a target may offer, asked for with {@link Target#capability}:
 * {@link ServerInfo} (environment.json, table engines), {@link StatusCounters}
 * (the monitor's db.* columns), {@link DatabaseAdmin} (an experiment's fresh databases),
 * {@link NativeSnapshot} (clean/method native), {@link ServerActivity} (the
 * activity snapshot at a detected step), {@link ServerClock} (the shards' start barrier's clock offset),
 * {@link ServerSettings} (every setting of the running server: the monitor's record of settings changed).</li>
 * <li>{@link TargetKind}: one kind of database described for those who must not know its
 * binding (type names, URLs, defaults, server process, default counters, storage engines), with its
 * {@link KindFeatures} (server extend, range delete, native snapshot, fresh databases) in one record;
 * {@link TargetKinds} finds the kinds with {@link ServiceLoader} and checks a
 * config's target section against them.</li>
 * </ul>
 *
 * <p>Adding a database: a package {@code NAME} with a {@code Target}, its {@code Session} and a
 * public {@code TargetKind} with a no-argument constructor, plus its class name on one line of
 * {@code src/main/resources/META-INF/services/TargetKind}. Nothing else changes: no other
 * package may name a binding (LayeringTest checks it). The test-only MEMORY kind under src/test is an example;
 * SessionContractTest (src/test) holds every kind to the Session rules and to its features: add the new kind's
 * connection to its list.
 */
package org.ivsbench.db;

import java.util.ServiceLoader;
