package org.ivsbench.db.mongo;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;

import org.ivsbench.db.TargetException;

/**
 * The MongoDB target's settings from {@code TargetConfig.options}. Names are matched without regard to case;
 * an unknown name or a bad value is an error naming it, because a silently ignored option would make a run
 * measure something other than what its config says.
 *
 * <ul>
 *   <li>{@code writeConcern}: w1 (also w2, w3 ...), majority, acknowledged, unacknowledged, journaled; absent =
 *       whatever the URL says (driver default: acknowledged).</li>
 *   <li>{@code readPreference}: primary, primaryPreferred, secondary, secondaryPreferred, nearest.</li>
 *   <li>{@code tls}: true/false; {@code tlsAllowInvalidHostnames}: true/false. Absent = as in the URL.</li>
 *   <li>{@code extendFallback}: client (default) | fail: what extendmethod=server does on a server without update
 *       pipelines (MongoDB before 4.2, or the mongo-java-server stand-in).</li>
 *   <li>{@code lowercaseFields}: true (default) | false: store {@code FIELDn} as {@code fieldn}, as YCSB's MongoDB
 *       binding names them, and report {@code fieldn} back as {@code FIELDn}.</li>
 * </ul>
 *
 * @param writeConcern null = as in the URL
 * @param readPreference null = as in the URL
 * @param tls null = as in the URL
 * @param tlsAllowInvalidHostnames null = as in the URL
 */
record MongoOptions(
        WriteConcern writeConcern,
        ReadPreference readPreference,
        Boolean tls,
        Boolean tlsAllowInvalidHostnames,
        ExtendFallback extendFallback,
        boolean lowercaseFields) {

    static final String WRITE_CONCERN = "writeConcern";
    static final String READ_PREFERENCE = "readPreference";
    static final String TLS = "tls";
    static final String TLS_ALLOW_INVALID_HOSTNAMES = "tlsAllowInvalidHostnames";
    static final String EXTEND_FALLBACK = "extendFallback";
    static final String LOWERCASE_FIELDS = "lowercaseFields";

    static final Set<String> NAMES =
            Set.of(WRITE_CONCERN, READ_PREFERENCE, TLS, TLS_ALLOW_INVALID_HOSTNAMES, EXTEND_FALLBACK, LOWERCASE_FIELDS);

    /** What extendmethod=server does when the server cannot run an update pipeline. */
    enum ExtendFallback {
        /** Log one warning per target and run the CLIENT read-append-write instead. */
        CLIENT,
        /** Throw a TargetException on every server extend. */
        FAIL
    }

    static MongoOptions parse(Map<String, String> options) throws TargetException {
        WriteConcern writeConcern = null;
        ReadPreference readPreference = null;
        Boolean tls = null;
        Boolean tlsAllowInvalidHostnames = null;
        ExtendFallback extendFallback = ExtendFallback.CLIENT;
        boolean lowercaseFields = true;
        for (Map.Entry<String, String> e : options.entrySet()) {
            String name = canonicalName(e.getKey());
            String value = e.getValue() == null ? "" : e.getValue().trim();
            switch (name) {
                case WRITE_CONCERN -> writeConcern = writeConcern(value);
                case READ_PREFERENCE -> readPreference = readPreference(value);
                case TLS -> tls = bool(name, value);
                case TLS_ALLOW_INVALID_HOSTNAMES -> tlsAllowInvalidHostnames = bool(name, value);
                case EXTEND_FALLBACK -> extendFallback = extendFallback(value);
                case LOWERCASE_FIELDS -> lowercaseFields = bool(name, value);
                default -> throw new IllegalStateException(name);
            }
        }
        return new MongoOptions(
                writeConcern, readPreference, tls, tlsAllowInvalidHostnames, extendFallback, lowercaseFields);
    }

    private static String canonicalName(String given) throws TargetException {
        for (String name : NAMES) {
            if (name.equalsIgnoreCase(given)) {
                return name;
            }
        }
        throw new TargetException("unknown MongoDB option '" + given + "' (known: "
                + String.join(", ", NAMES.stream().sorted().toList()) + ")");
    }

    private static WriteConcern writeConcern(String value) throws TargetException {
        String v = value.toLowerCase(Locale.ROOT);
        switch (v) {
            case "majority":
                return WriteConcern.MAJORITY;
            case "acknowledged":
                return WriteConcern.ACKNOWLEDGED;
            case "unacknowledged":
            case "w0":
                return WriteConcern.UNACKNOWLEDGED;
            case "journaled":
                return WriteConcern.JOURNALED;
            default:
                if (v.matches("w[1-9][0-9]{0,2}")) {
                    return new WriteConcern(Integer.parseInt(v.substring(1)));
                }
                throw new TargetException("bad MongoDB option writeConcern='" + value
                        + "' (w1, w2 ..., majority, acknowledged, unacknowledged, journaled)");
        }
    }

    private static ReadPreference readPreference(String value) throws TargetException {
        try {
            return ReadPreference.valueOf(value);
        } catch (IllegalArgumentException e) {
            throw new TargetException("bad MongoDB option readPreference='" + value
                    + "' (primary, primaryPreferred, secondary, secondaryPreferred, nearest)");
        }
    }

    private static ExtendFallback extendFallback(String value) throws TargetException {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "client" -> ExtendFallback.CLIENT;
            case "fail" -> ExtendFallback.FAIL;
            default -> throw new TargetException("bad MongoDB option extendFallback='" + value + "' (client, fail)");
        };
    }

    private static boolean bool(String name, String value) throws TargetException {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new TargetException("bad MongoDB option " + name + "='" + value + "' (true, false)");
        };
    }
}
