/**
 * Apache Cassandra through the Apache Cassandra Java driver (java-driver-core 4.x).
 *
 * <p>URL: {@code cassandra://host[:port][,host[:port]...]/keyspace[?dc=datacenter]} (port 9042, datacenter
 * datacenter1 by default). Target options ({@code <targetOptions>}): readConsistency, writeConsistency,
 * serialConsistency, replicationFactor, extendWrite (plain | conditional), requestTimeoutMs; see
 * {@link CassandraOptions}.
 *
 * <p>What each operation sends is described on {@link CassandraSession}; the
 * server counters on {@link ServerViews}. Capabilities: ServerInfo (system.local),
 * StatusCounters (system_views), DatabaseAdmin (a keyspace per fresh database), ServerActivity (thread pools,
 * running queries, SSTable tasks and internode drops from system_views: {@link CassandraActivity}). No server-side
 * extend, no native snapshot.
 *
 * <p>Timeouts and refusals the cluster reports about one request (read/write timeout, unavailable, overloaded,
 * mutation too large, the driver's own request timeout) are that operation's ERROR with the reason; a node that
 * cannot be reached is a lost connection, which a reconnecting session waits out.
 */
package org.ivsbench.db.cassandra;
