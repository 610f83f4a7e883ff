package org.ivsbench.run;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

import org.ivsbench.db.ServerClock;
import org.ivsbench.db.TargetException;

/**
 * This host's clock against the database server's: {@code offsetMs} = server time - local time, measured in a
 * few round trips and kept from the one with the smallest round trip (the server read its clock somewhere between
 * the local send and receive, so the midpoint is off by at most half the round trip, plus the server clock's
 * resolution). The true offset lies within {@code offsetMs ± boundMs}. An embedded database's offset is 0 exactly.
 */
public record ClockOffset(String source, double offsetMs, double boundMs, double roundTripMs) {
    /** Round trips per measurement: the first may pay for a cold connection, the least of the rest is kept. */
    static final int ROUNDS = 5;

    /** This host's wall clock in epoch nanoseconds (microsecond steps on Linux). */
    static long wallNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    static ClockOffset measure(ServerClock clock, LongSupplier localNanos) throws TargetException {
        if (clock.embedded()) {
            return new ClockOffset(clock.source(), 0, 0, 0);
        }
        long bestRtt = Long.MAX_VALUE;
        long bestOffset = 0;
        try (ServerClock.Reader reader = clock.open()) {
            for (int i = 0; i < ROUNDS; i++) {
                long sent = localNanos.getAsLong();
                long server = reader.nowMicros() * 1000;
                long received = localNanos.getAsLong();
                long rtt = received - sent;
                if (rtt < bestRtt) {
                    bestRtt = rtt;
                    bestOffset = server - (sent + rtt / 2);
                }
            }
        }
        double bound = (bestRtt / 2.0 + clock.resolutionMicros() * 1000.0) / 1e6;
        return new ClockOffset(clock.source(), bestOffset / 1e6, bound, bestRtt / 1e6);
    }

    /**
     * The whole milliseconds to add to this host's clock to read the server's, or 0 when the offset is within its
     * bound (not measurably different from 0: on one host, or hosts kept in step by NTP better than the bound).
     */
    long correctionMs() {
        return Math.abs(offsetMs) > boundMs ? Math.round(offsetMs) : 0;
    }

    /** The facts for summary.json's barrier block (milliseconds, to the microsecond). */
    Map<String, Object> facts() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("serverClock", source);
        m.put("serverClockOffsetMs", micro(offsetMs));
        m.put("offsetBoundMs", micro(boundMs));
        m.put("offsetRoundTripMs", micro(roundTripMs));
        return m;
    }

    private static double micro(double ms) {
        return Math.round(ms * 1000) / 1000.0;
    }
}
