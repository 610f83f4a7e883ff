package org.ivsbench.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigRedactorTest {
    @TempDir
    Path dir;

    private static final String XML =
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- keep this comment -->
            <parameters>
                <type>MARIADB</type>
                <url>jdbc:mariadb://127.0.0.1:3306/ivsbench?user=ivs&amp;password=UrlPw1&amp;ssl=true</url>
                <username>ivs</username>
                <password>PlainPw2</password>
                <targetOptions>
                    <trustStorePassword>StorePw3</trustStorePassword>
                    <clientSecret><![CDATA[Cdata<Pw4>]]></clientSecret>
                    <PASSWORD_HINT>
                        HintPw5
                    </PASSWORD_HINT>
                    <mongoUri>mongodb://admin:UriPw6@db1:27017/ivs</mongoUri>
                    <tls keyPassword="AttrPw7" secretKey='AttrPw8' mode="verify"/>
                    <empty_password/>
                </targetOptions>
            </parameters>
            """;
    private static final List<String> SECRETS =
            List.of("UrlPw1", "PlainPw2", "StorePw3", "Cdata<Pw4>", "Pw4", "HintPw5", "UriPw6", "AttrPw7", "AttrPw8");

    @Test
    void everySecretIsMaskedAndEverythingElseKept() throws Exception {
        Path file = Files.writeString(dir.resolve("c.xml"), XML);
        String redacted = ConfigRedactor.redactedXml(file);
        for (String secret : SECRETS) {
            assertFalse(redacted.contains(secret), secret + " leaked:\n" + redacted);
        }
        assertTrue(redacted.contains("<password>*****</password>"), redacted);
        assertTrue(redacted.contains("<trustStorePassword>*****</trustStorePassword>"), redacted);
        assertTrue(redacted.contains("keyPassword=\"*****\" secretKey='*****' mode=\"verify\""), redacted);
        assertTrue(redacted.contains("mongodb://admin:*****@db1:27017/ivs"), redacted);
        assertTrue(redacted.contains("?user=ivs&amp;password=*****&amp;ssl=true"), redacted);
        assertTrue(redacted.contains("<!-- keep this comment -->"));
        assertTrue(redacted.contains("<empty_password/>"));
        assertTrue(redacted.contains("<username>ivs</username>"));
        assertTrue(redacted.contains("jdbc:mariadb://127.0.0.1:3306/ivsbench?"), "host:port is not user:password");
    }

    @Test
    void theRedactedCopyIsStillAWellFormedConfig() throws Exception {
        Path original = Path.of("src/test/resources/config/good/full.xml");
        Path copy = Files.writeString(dir.resolve("full.xml"), ConfigRedactor.redactedXml(original));
        BenchmarkConfig c = YcsbIvsNames.load(copy, Map.of("*****", "from-masked-name"));
        // passwordEnv's value is masked too (its name contains "password"): over-redaction is the safe side.
        assertEquals("from-masked-name", c.target().password());
        assertEquals(
                YcsbIvsNames.load(original, Map.of("IVS_TEST_PASSWORD", "x")).phases(), c.phases());
    }

    @Test
    void aConfigWithoutSecretsIsUnchanged() throws IOException, ConfigException {
        Path sample = Path.of("config/sqlite/ycsbivs_config.xml");
        assertEquals(Files.readString(sample, StandardCharsets.UTF_8), ConfigRedactor.redactedXml(sample));
    }

    @Test
    void missingFileIsAConfigError() {
        ConfigException e = Assertions.assertThrows(
                ConfigException.class, () -> ConfigRedactor.redactedXml(dir.resolve("gone.xml")));
        assertEquals("gone.xml", e.path());
    }
}
