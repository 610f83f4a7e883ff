package org.ivsbench.docs;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the doc test takes from a page as commands (pure text; expectations written out by hand). */
class DocExtractorTest {
    private static final List<String> PAGE = List.of(
            "# Title",
            "",
            "Text that mentions java -jar in prose is not a command.",
            "",
            "    mvn -B -q -DskipTests package        # builds the jar",
            "    java -jar target/benchbase.jar -b ycsbivs -c c.xml \\",
            "         --create=true --load=true",
            "",
            "    # a comment line",
            "    sed \"s#<url>.*</url>#<url>$X</url>#\" a.xml > b.xml",
            "",
            "An XML block is not a command block:",
            "",
            "    <sweep><terminals>1,2</terminals></sweep>",
            "",
            "```",
            "java -jar target/benchbase.jar replay --trace run.trace.gz   # same seed",
            "```",
            "",
            "```xml",
            "<url>jdbc:mariadb://db:3306/x</url>",
            "```",
            "",
            "| Command | Prints |",
            "|---|---|",
            "| `scripts/bench/loader.sh` | figures |",
            "| `scripts/bench/tenants.sh`, round 1 | 29 |",
            "",
            "    eval \"$(scripts/mariadb.sh start)\"",
            "    <fresh>ignored beside a command</fresh>");

    @Test
    void blocksStepsAndTheirLines() {
        List<DocExtractor.Block> blocks = DocExtractor.blocks("p.md", PAGE);
        List<String> steps = blocks.stream()
                .flatMap(b -> b.steps().stream())
                .map(DocExtractor.Step::toString)
                .toList();
        assertEquals(
                List.of(
                        "p.md:5 mvn -B -q -DskipTests package",
                        "p.md:6 java -jar target/benchbase.jar -b ycsbivs -c c.xml --create=true --load=true",
                        "p.md:10 sed \"s#<url>.*</url>#<url>$X</url>#\" a.xml > b.xml",
                        "p.md:17 java -jar target/benchbase.jar replay --trace run.trace.gz",
                        "p.md:26 scripts/bench/loader.sh",
                        "p.md:29 eval \"$(scripts/mariadb.sh start)\""),
                steps);
        assertEquals(
                List.of(5, 17, 26, 29),
                blocks.stream().map(DocExtractor.Block::line).toList());
    }

    @Test
    void commentsOutsideQuotesOnly() {
        assertEquals("a b ", DocExtractor.stripComment("a b # c"));
        assertEquals("sed 's#x#y#' f", DocExtractor.stripComment("sed 's#x#y#' f"));
        assertEquals("echo \"a # b\" ", DocExtractor.stripComment("echo \"a # b\" # c"));
        assertEquals("", DocExtractor.stripComment("# all"));
        assertEquals("a#b", DocExtractor.stripComment("a#b"));
    }

    @Test
    void whatStartsACommand() {
        assertTrue(DocExtractor.isCommand("java -jar target/benchbase.jar"));
        assertTrue(DocExtractor.isCommand("ROUNDS=1 scripts/bench/key-draws.sh"));
        assertTrue(DocExtractor.isCommand("eval \"$(scripts/postgres.sh start)\""));
        assertTrue(DocExtractor.isCommand(".cache/venv/bin/python -m ivs_analyzer report x"));
        assertTrue(DocExtractor.isCommand("python -m ivs_analyzer report x"));
        assertFalse(DocExtractor.isCommand("javac Foo.java"));
        assertFalse(DocExtractor.isCommand("docker compose up"));
        assertFalse(DocExtractor.isCommand("src/main/java/org/ivsbench/"));
    }

    @Test
    void allowListEntriesArePrefixesInWholeWords() {
        DocAllowList allow = DocAllowList.parse(List.of(
                "intro",
                DocAllowList.HEADING,
                "",
                "| command | why |",
                "|---|---|",
                "| `docker` | no engine |",
                "| `scripts/mariadb.sh stop` | the suite's |",
                "## next section",
                "| `java` | not part of the list |"));
        assertEquals(
                List.of("docker", "scripts/mariadb.sh stop"),
                List.copyOf(allow.entries().keySet()));
        assertEquals("no engine", allow.reason("docker"));
        assertTrue(allow.entryFor("docker compose -f x up -d").isPresent());
        assertTrue(allow.entryFor("scripts/mariadb.sh stop; scripts/cassandra.sh stop")
                .isPresent());
        assertFalse(allow.entryFor("docker/build.sh").isPresent());
        assertFalse(allow.entryFor("scripts/mariadb.sh stopped").isPresent());
        assertFalse(allow.entryFor("java -jar x").isPresent());
    }
}
