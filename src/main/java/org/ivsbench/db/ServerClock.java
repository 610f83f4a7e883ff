package org.ivsbench.db;

/**
 * A target's capability: reading the database server's own clock, so that drivers on several hosts can measure
 * their clocks' offset against one common clock (the shards' start barrier). An embedded database has no clock of
 * its own: it runs in this process, on this host's clock.
 */
public interface ServerClock {

    /** How the time is read, for summary.json (the statement, or "embedded"). */
    String source();

    /** The step of the server's time reading in microseconds (1 for a microsecond timestamp); 0 when embedded. */
    long resolutionMicros();

    /** True for a database inside this process: its clock is the driver's own, the offset 0 by definition. */
    default boolean embedded() {
        return false;
    }

    /** Opens a connection of its own to read the server's time over (not for an embedded database). */
    Reader open() throws TargetException;

    /** One open connection that reads the server's time; one round trip a read. */
    interface Reader extends AutoCloseable {
        /** The server's current time in epoch microseconds, taken while the request is on the server. */
        long nowMicros() throws TargetException;

        @Override
        void close();
    }

    /** The clock of an embedded database: this host's. */
    ServerClock EMBEDDED = new ServerClock() {
        @Override
        public String source() {
            return "embedded";
        }

        @Override
        public long resolutionMicros() {
            return 0;
        }

        @Override
        public boolean embedded() {
            return true;
        }

        @Override
        public Reader open() throws TargetException {
            throw new TargetException("an embedded database has no clock of its own");
        }
    };
}
