package org.ivsbench.db.mongo;

import java.util.Locale;
import java.util.Set;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteException;
import com.mongodb.bulk.BulkWriteError;
import org.bson.BsonMaximumSizeExceededException;

import org.ivsbench.db.TargetException;

/** How driver exceptions become outcomes and TargetExceptions. */
final class MongoErrors {
    /** The reason every path uses for a document that would pass the server's limit. */
    static final String TOO_LARGE = "document exceeds 16MB";

    /**
     * Server codes for "the document would be too large": 10334 BSONObjectTooLarge (insert/replace), 17419 and
     * 17420 (the result of an update is larger than the limit), 13524 (an older "object too large" path).
     */
    private static final Set<Integer> TOO_LARGE_CODES = Set.of(10334, 17419, 17420, 13524);

    private MongoErrors() {}

    /** A failure of the statement or of the connection; connectionLost when the session must be reopened. */
    static TargetException failure(String what, RuntimeException e) {
        boolean lost = e instanceof MongoSocketException || e instanceof MongoTimeoutException;
        return new TargetException("MongoDB " + what + " failed: " + e.getMessage(), e, lost);
    }

    static boolean isDuplicateKey(RuntimeException e) {
        if (e instanceof MongoWriteException w) {
            return w.getError().getCategory() == ErrorCategory.DUPLICATE_KEY;
        }
        if (e instanceof MongoBulkWriteException b) {
            return !b.getWriteErrors().isEmpty()
                    && b.getWriteErrors().stream()
                            .allMatch(err -> ErrorCategory.fromErrorCode(err.getCode()) == ErrorCategory.DUPLICATE_KEY);
        }
        return false;
    }

    /**
     * The driver's own size check (BsonMaximumSizeExceededException: the command it would send is too big) or
     * a real server's refusal of a too-large document.
     */
    static boolean isTooLarge(RuntimeException e) {
        if (e instanceof BsonMaximumSizeExceededException) {
            return true;
        }
        if (e instanceof MongoWriteException w) {
            return tooLarge(w.getError().getCode(), null, w.getError().getMessage());
        }
        if (e instanceof MongoBulkWriteException b) {
            for (BulkWriteError err : b.getWriteErrors()) {
                if (tooLarge(err.getCode(), null, err.getMessage())) {
                    return true;
                }
            }
            return false;
        }
        if (e instanceof MongoCommandException c) {
            return tooLarge(c.getErrorCode(), c.getErrorCodeName(), c.getErrorMessage());
        }
        return false;
    }

    private static boolean tooLarge(int code, String codeName, String message) {
        if (TOO_LARGE_CODES.contains(code) || "BSONObjectTooLarge".equals(codeName)) {
            return true;
        }
        String m = message == null ? "" : message.toLowerCase(Locale.ROOT);
        return m.contains("document too large")
                || m.contains("object to insert too large")
                || m.contains("is larger than 16777216")
                || m.contains("bsonobjecttoolarge");
    }
}
