package org.ivsbench.random;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Seeded value bytes for records. ycsbivs values grow to megabytes, so generation must not dominate
 * the client's CPU: each nextLong yields ten characters (6 bits each) from a 64-symbol alphabet, which
 * needs no rejection sampling and no per-character virtual call.
 *
 * <p>The alphabet is the URL-safe base64 one (letters, digits, '-' and '_'): printable, no quotes or
 * backslashes, one byte per character in every encoding the targets use, so value length in
 * characters equals length in bytes.
 */
public final class RandomValues {
    private static final byte[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".getBytes(StandardCharsets.US_ASCII);
    private static final int CHARS_PER_LONG = 10;

    private RandomValues() {}

    /** A string of exactly {@code length} printable ASCII characters. */
    public static String ascii(SplittableRandom r, int length) {
        byte[] bytes = new byte[requireLength(length)];
        fill(r, bytes, 0, length);
        // ISO-8859-1 lets the JDK keep the bytes as a compact Latin-1 string without re-encoding.
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** The same characters as {@link #ascii} as bytes, for targets that take byte arrays. */
    public static byte[] asciiBytes(SplittableRandom r, int length) {
        byte[] bytes = new byte[requireLength(length)];
        fill(r, bytes, 0, length);
        return bytes;
    }

    /** Fills dst[off, off + len) with printable ASCII. */
    public static void fill(SplittableRandom r, byte[] dst, int off, int len) {
        if (off < 0 || len < 0 || off > dst.length - len) {
            throw new IndexOutOfBoundsException("off " + off + ", len " + len + ", array " + dst.length);
        }
        int i = off;
        int end = off + len;
        int wholeEnd = off + (len / CHARS_PER_LONG) * CHARS_PER_LONG;
        while (i < wholeEnd) {
            long bits = r.nextLong();
            for (int k = 0; k < CHARS_PER_LONG; k++) {
                dst[i++] = ALPHABET[(int) (bits & 63)];
                bits >>>= 6;
            }
        }
        if (i < end) {
            long bits = r.nextLong();
            while (i < end) {
                dst[i++] = ALPHABET[(int) (bits & 63)];
                bits >>>= 6;
            }
        }
    }

    /** Uniform int in [lo, hi], both inclusive. */
    public static int uniformInt(SplittableRandom r, int lo, int hi) {
        if (hi < lo) {
            throw new IllegalArgumentException("empty range [" + lo + ", " + hi + "]");
        }
        return (int) r.nextLong(lo, (long) hi + 1);
    }

    private static int requireLength(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, got " + length);
        }
        return length;
    }
}
