package org.ivsbench.config;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigDigestTest {
    @TempDir
    Path dir;

    @Test
    void matchesTheStandardSha256OfTheBytes() throws Exception {
        // FIPS 180-2 test vector for "abc".
        Path file = Files.writeString(dir.resolve("abc.xml"), "abc");
        assertEquals(
                "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", ConfigDigest.sha256(file));
    }

    @Test
    void isStableAndSensitiveToEveryByte() throws Exception {
        Path sample = Path.of("config/sqlite/ycsbivs_config.xml");
        String first = ConfigDigest.sha256(sample);
        assertEquals(first, ConfigDigest.sha256(sample));
        assertTrue(first.matches("sha256:[0-9a-f]{64}"), first);

        Path copy = Files.copy(sample, dir.resolve("copy.xml"));
        assertEquals(first, ConfigDigest.sha256(copy), "the digest depends on content, not on the path");
        Files.writeString(copy, Files.readString(copy).replace("<rate>500</rate>", "<rate>501</rate>"));
        assertNotEquals(first, ConfigDigest.sha256(copy));
    }

    @Test
    void missingFileIsAConfigError() {
        ConfigException e =
                Assertions.assertThrows(ConfigException.class, () -> ConfigDigest.sha256(dir.resolve("gone.xml")));
        assertEquals("gone.xml", e.path());
    }
}
