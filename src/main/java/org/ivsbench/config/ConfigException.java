package org.ivsbench.config;

/**
 * A configuration or command-line error. The message always names the element path (or option) and the
 * offending value, so that one line tells the user what to fix.
 */
public final class ConfigException extends Exception {
    private final String path;

    public ConfigException(String path, String message) {
        super(path + ": " + message);
        this.path = path;
    }

    /** Element path such as {@code works/work[2]/rate} or an option such as {@code --window}. */
    public String path() {
        return path;
    }
}
