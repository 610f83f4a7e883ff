package org.ivsbench.bench.ycsbivs.procedures;

/**
 * An operation that needs a live key found none in its section (everything deleted, or nothing inserted yet):
 * the terminal counts it SKIPPED {@value #REASON}, as nothing was sent to the database.
 */
public final class NoLiveKey extends RuntimeException {
    public static final String REASON = "no live key";
    private static final long serialVersionUID = 1L;

    NoLiveKey(String section) {
        super(REASON + " in section " + section, null, false, false);
    }
}
