package org.ivsbench.random;

/**
 * The 64-bit FNV-1a hash as YCSB applies it to a long (its {@code Utils.fnvhash64}): one octet at a
 * time, least significant first. Key names and scrambled Zipfian keys are derived from it, so it must
 * match YCSB bit for bit or our key space would differ from the one in the YCSB-IVS study.
 */
public final class Fnv {
    static final long OFFSET_BASIS_64 = 0xCBF29CE484222325L;
    static final long PRIME_64 = 1099511628211L;

    private Fnv() {}

    /**
     * Returns abs(FNV-1a-64(v)). As in YCSB, Math.abs leaves Long.MIN_VALUE negative; callers that
     * need a non-negative result must cope with that (practically unreachable) case.
     */
    public static long fnv64(long v) {
        long h = OFFSET_BASIS_64;
        for (int i = 0; i < 8; i++) {
            h ^= v & 0xff;
            h *= PRIME_64;
            v >>>= 8;
        }
        return Math.abs(h);
    }
}
