package org.ivsbench.random;

/** Record key names exactly as YCSB's CoreWorkload builds them (with its default zeropadding of 1). */
public final class KeyNames {
    private static final String PREFIX = "user";

    private KeyNames() {}

    /**
     * @param ordered false (YCSB's default, "hashed" insert order) spreads consecutive key numbers over
     *                the key space so inserts do not all hit the right edge of a B-tree; true keeps the
     *                number itself.
     */
    public static String key(long keynum, boolean ordered) {
        return PREFIX + (ordered ? keynum : Fnv.fnv64(keynum));
    }
}
