package org.ivsbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scripts/demo.sh's output carries no ANSI escape debris: Debian's Maven 3.8 prints reset sequences even in batch
 * mode unless jansi.noreset is set, so every Maven call in the script must set it.
 */
class DemoScriptTest {
    @Test
    void everyMavenCallSuppressesAnsiResets() throws Exception {
        List<String> calls = Files.readAllLines(Path.of("scripts/demo.sh")).stream()
                .filter(l -> l.matches("\\s*(MAVEN_OPTS=\\S+\\s+)?mvn\\s.*") || l.matches(".*\\bmvn -B.*"))
                .filter(l -> !l.trim().startsWith("#"))
                .toList();
        assertFalse(calls.isEmpty(), "demo.sh builds with Maven");
        for (String call : calls) {
            assertTrue(call.contains("-Djansi.noreset=true"), call);
        }
    }
}
