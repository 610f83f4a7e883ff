package org.ivsbench.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A secret kept in a file (its first line), named by a config element; the secret never enters a message. */
final class SecretFile {
    private SecretFile() {}

    /**
     * The first line of {@code file}; relative paths are resolved against the config file's folder, so a config
     * and its secret travel together. Errors name {@code elementPath} and the file, never its content.
     */
    static String firstLine(String elementPath, String file, Path configDir, String what) throws ConfigException {
        if (file.isBlank()) {
            throw new ConfigException(elementPath, "is empty (name a file whose first line is the " + what + ")");
        }
        Path path = configDir.resolve(file);
        try (BufferedReader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            String line = reader.readLine();
            if (line == null || line.isEmpty()) {
                throw new ConfigException(
                        elementPath, "'" + file + "' is empty (its first line must be the " + what + ")");
            }
            return line;
        } catch (IOException | SecurityException e) {
            throw new ConfigException(
                    elementPath,
                    "cannot read '" + file + "' (" + path + "): " + e.getClass().getSimpleName());
        }
    }
}
