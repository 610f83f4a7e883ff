package org.ivsbench.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Identifies the config a run used ({@code configDigest} in summary.json): SHA-256 of the file's bytes as given,
 * before redaction, so {@code sha256sum config.xml} on the original gives the same hex.
 */
public final class ConfigDigest {
    private ConfigDigest() {}

    /** "sha256:" followed by 64 lower-case hex digits. */
    public static String sha256(Path xmlFile) throws ConfigException {
        try {
            return sha256(Files.readAllBytes(xmlFile));
        } catch (IOException | SecurityException e) {
            throw new ConfigException(SafeXml.label(xmlFile), "cannot read config file '" + xmlFile + "': " + e);
        }
    }

    public static String sha256(byte[] content) {
        try {
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
