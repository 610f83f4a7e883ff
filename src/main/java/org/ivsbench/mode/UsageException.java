package org.ivsbench.mode;

/** Bad input found before anything is touched: one line for the user, exit code 2. */
public final class UsageException extends Exception {
    public UsageException(String message) {
        super(message);
    }
}
