package org.ivsbench.random;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Derives the random streams of a run from its one {@code randomSeed}.
 *
 * <p>Streams are derived by a pure function of (seed, purpose, index) rather than by calling
 * {@link SplittableRandom#split()} on a master in a fixed order. With ordered splitting, terminal 3's
 * stream would change whenever anything else splits first (one more loader chunk, a phase with more
 * terminals, a parallel loader whose chunks start in scheduling order). With derivation, "terminal 3 of
 * seed 42" is the same stream in every run and every configuration, which is what reproducibility
 * promises.
 *
 * <p>Derivation: the purpose string is hashed with FNV-1a-64 over its UTF-8 bytes (stable across JVMs,
 * unlike identity hashes), then seed, purpose hash and index are folded through the SplitMix64 finaliser
 * (a bijective avalanche mix), so neighbouring indexes give unrelated 64-bit values. That value seeds a
 * SplittableRandom which is split once: the child has its own gamma (Weyl increment) as well as its own
 * seed, so two derived streams are not shifted copies of the same sequence as two plain
 * {@code new SplittableRandom(s)} streams would be.
 */
public final class Seeds {
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private Seeds() {}

    /** The run's master stream: for one-off draws in setup code, not for terminals or loaders. */
    public static SplittableRandom master(long seed) {
        return new SplittableRandom(seed);
    }

    /**
     * An independent stream for one consumer, e.g. ("terminal", terminalId) or ("loader", chunkId).
     * Same arguments give the same stream; any other purpose or index gives an uncorrelated one.
     */
    public static SplittableRandom forStream(long seed, String purpose, int index) {
        Objects.requireNonNull(purpose, "purpose");
        return new SplittableRandom(streamSeed(seed, purpose, index)).split();
    }

    /**
     * An independent stream for one consumer in one context, e.g. ("terminal", terminalId, phaseIndex): the
     * sub-index is folded in the same way as the index, so (t, p) and (t, p + 1) are as unrelated as two
     * terminals are, and the stream does not depend on how much of any other stream was drawn.
     */
    public static SplittableRandom forStream(long seed, String purpose, int index, int subIndex) {
        Objects.requireNonNull(purpose, "purpose");
        return new SplittableRandom(mix64(streamSeed(seed, purpose, index) + (subIndex + 1L) * GOLDEN_GAMMA)).split();
    }

    static long streamSeed(long seed, String purpose, int index) {
        long h = mix64(seed + GOLDEN_GAMMA);
        h = mix64(h ^ purposeHash(purpose));
        return mix64(h + (index + 1L) * GOLDEN_GAMMA);
    }

    private static long purposeHash(String purpose) {
        long h = Fnv.OFFSET_BASIS_64;
        for (byte b : purpose.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= Fnv.PRIME_64;
        }
        return h;
    }

    /** SplitMix64's finaliser (Stafford variant 13). */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
