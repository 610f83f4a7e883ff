package org.ivsbench.trace;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.ivsbench.op.OpResult;

/**
 * Hashes of what reads returned, independent of the database: the outcome, then each record's fields sorted by
 * name with their values. Every string is length-prefixed so that no two different results hash alike by
 * concatenation. Also the running digest of one terminal's read hashes, in sequence order.
 */
public final class ResultDigest {
    private final MessageDigest chain = sha256();

    /** The hash of one read: its outcome and (when OK) the record. */
    public static String ofRead(OpResult result, Map<String, String> record) {
        MessageDigest md = sha256();
        put(md, result.outcome().name());
        if (result.isOk()) {
            putRecord(md, record);
        }
        return hex(md);
    }

    /** The hash of one scan: its outcome and the records in the order returned (key order). */
    public static String ofScan(OpResult result, List<Map<String, String>> records) {
        MessageDigest md = sha256();
        put(md, result.outcome().name());
        if (result.isOk()) {
            put(md, Integer.toString(records.size()));
            for (Map<String, String> r : records) {
                putRecord(md, r);
            }
        }
        return hex(md);
    }

    /** Adds one read of this terminal; calls come in sequence order. */
    public void add(long seq, String hash) {
        put(chain, seq + ":" + hash);
    }

    /** The digest of this terminal's reads so far. */
    public String terminalDigest() {
        try {
            return hex((MessageDigest) chain.clone());
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("SHA-256 digests are cloneable in every JDK", e);
        }
    }

    /** The run's digest: the terminals' digests in terminal order. */
    public static String total(Map<Integer, String> terminalDigests) {
        MessageDigest md = sha256();
        new TreeMap<>(terminalDigests).forEach((t, d) -> put(md, t + "=" + d));
        return hex(md);
    }

    private static void putRecord(MessageDigest md, Map<String, String> record) {
        TreeMap<String, String> sorted = new TreeMap<>(record);
        put(md, Integer.toString(sorted.size()));
        sorted.forEach((k, v) -> {
            put(md, k);
            put(md, v == null ? "\u0000null" : v);
        });
    }

    private static void put(MessageDigest md, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        md.update((b.length + ":").getBytes(StandardCharsets.US_ASCII));
        md.update(b);
    }

    private static String hex(MessageDigest md) {
        // 128 bits are plenty to tell results apart and halve the trace's share of hashes.
        byte[] full = md.digest();
        return HexFormat.of().formatHex(full, 0, 16);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
