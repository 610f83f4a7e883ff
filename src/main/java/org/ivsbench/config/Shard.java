package org.ivsbench.config;

/**
 * Which part of the run this driver takes when {@code n} drivers share it ({@code --shard i/n}): driver {@code i}
 * owns every {@code n}-th item of every enumerated thing, starting at item {@code i} - terminals (global ids
 * {@code i, i + n, ...}), arrivals of an open-loop timeline, inserted key numbers. Interleaving rather than blocks
 * gives each driver the largest-remainder share of any total (the shares differ by at most one and always sum to
 * the total), and keeps each driver's share of any prefix (the first {@code count} arrivals, the first
 * {@code activeTerminals} terminals) exact as well.
 */
public record Shard(int index, int count) {
    /** The whole run in one driver. */
    public static final Shard WHOLE = new Shard(0, 1);

    public Shard {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard " + index + "/" + count + ": need 0 <= i < n");
        }
    }

    /**
     * Parses {@code i/n}; the message of the exception is the reason only (the caller names the option).
     */
    public static Shard parse(String text) {
        String[] parts = text == null ? new String[0] : text.trim().split("/", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("expected i/n, e.g. 0/4");
        }
        int i;
        int n;
        try {
            i = Integer.parseInt(parts[0].trim());
            n = Integer.parseInt(parts[1].trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected i/n with whole numbers, e.g. 0/4");
        }
        if (n < 1 || n > 4096) {
            throw new IllegalArgumentException("n must be between 1 and 4096");
        }
        if (i < 0 || i >= n) {
            throw new IllegalArgumentException("i must be between 0 and n - 1");
        }
        return new Shard(i, n);
    }

    public boolean whole() {
        return count == 1;
    }

    /** How many of the items {@code 0 .. total-1} this shard owns: its largest-remainder share of total. */
    public long share(long total) {
        return total / count + (index < total % count ? 1 : 0);
    }

    /** The global number of this shard's {@code local}-th item. */
    public long global(long local) {
        return index + local * count;
    }

    /**
     * The phase as this shard runs it, for its own results: its share of the count, of the active terminals and of
     * an open-loop rate (every n-th arrival of the phase's timeline, i.e. the rate / n).
     */
    public PhaseConfig view(PhaseConfig phase) {
        if (whole()) {
            return phase;
        }
        RateSpec rate = phase.rate().isOpen() ? RateSpec.open(phase.rate().opsPerSecond() / count) : phase.rate();
        return phase.toBuilder()
                .count(phase.endsByCount() ? share(phase.count()) : 0)
                .activeTerminals((int) share(phase.activeTerminals()))
                .rate(rate)
                .build();
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
