package org.ivsbench.db.mongo;

import java.util.Map;

/**
 * Exact BSON sizes of documents made only of string elements, to refuse a write that would pass the server's
 * document limit (16 MiB) before sending it: the mongo-java-server stand-in does not enforce the limit, and a
 * real server's refusal costs a round trip carrying megabytes.
 */
final class BsonSizes {
    /** int32 length prefix + trailing 0x00 of every document. */
    static final long EMPTY_DOCUMENT = 5;

    private BsonSizes() {}

    /** type byte + cstring name + int32 length + UTF-8 bytes + 0x00. */
    static long stringElement(String name, long valueUtf8Bytes) {
        return 1 + utf8Length(name) + 1 + 4 + valueUtf8Bytes + 1;
    }

    /** The document {_id: key, fields...} as stored. */
    static long document(String key, Map<String, String> fieldsAsStored) {
        long size = EMPTY_DOCUMENT + stringElement(FieldNames.ID, utf8Length(key));
        for (Map.Entry<String, String> e : fieldsAsStored.entrySet()) {
            size += stringElement(e.getKey(), utf8Length(e.getValue()));
        }
        return size;
    }

    /** The smallest document that can hold this one field next to its key: a lower bound for any document. */
    static long minimalDocumentWith(String key, String name, long valueUtf8Bytes) {
        return EMPTY_DOCUMENT + stringElement(FieldNames.ID, utf8Length(key)) + stringElement(name, valueUtf8Bytes);
    }

    /** UTF-8 length without encoding (values may be megabytes; no copy). */
    static long utf8Length(String s) {
        if (s == null) {
            return 0;
        }
        long n = 0;
        int len = s.length();
        for (int i = 0; i < len; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < len && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
