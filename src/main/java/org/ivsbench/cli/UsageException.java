package org.ivsbench.cli;

/** Bad input found by the CLI itself: one line for the user, exit code 2. */
final class UsageException extends Exception {
    UsageException(String message) {
        super(message);
    }
}
