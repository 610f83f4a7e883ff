package org.ivsbench.db;

import java.util.Map;

/**
 * A target's capability: the platform's own reorganization of a table - the maintenance a DBA would run on a
 * table whose values grew (InnoDB {@code OPTIMIZE TABLE}, a MyRocks manual compaction, PostgreSQL
 * {@code VACUUM FULL}) - and what it changed. Experiment mode main-maintained runs it on a physical copy of
 * main's data every epoch (docs/experiments.md). A kind without one does not offer the capability.
 */
public interface Reorganization {

    /**
     * What one reorganization did: the statement, how long it took, and the table's physical figures before and
     * after it (names the kind chooses, e.g. {@code innodb.data_length}, {@code rocksdb.L0_files}).
     */
    record Result(String statement, long millis, Map<String, Double> before, Map<String, Double> after) {}

    /** Reorganizes {@code table} and waits for it to end. */
    Result reorganize(String table) throws TargetException;
}
