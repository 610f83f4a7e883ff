package org.ivsbench.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.ivsbench.testsupport.CliArgs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every malformed or contradictory config in src/test/resources/config/bad/ through the real command line with
 * {@code --create --load --execute}, and those in its experiment/ folder, which only the experiment's own
 * validation (after the config loader) rejects: exit code 2, one line naming the element and the value (the
 * expectation is the file's first-line comment {@code <!-- expect: PATH | FRAGMENT -->}), no results folder,
 * and no database touched. The last is checked through a {@link DatabaseWatch}: each case runs on a copy whose
 * SQLite files lie in an empty folder and whose server addresses are listening sockets of this test, so a
 * database file that appears or a connection that arrives fails the case.
 */
class CliRejectsBadConfigsTest {
    private static final Path CORPUS = Path.of("src/test/resources/config/bad");
    private static final Pattern EXPECT = Pattern.compile("<!--\\s*expect:\\s*(.*?)\\s*\\|\\s*(.*?)\\s*-->");

    @TempDir
    Path tmp;

    static Stream<Path> corpus() throws IOException {
        // experiment/ and ycsbivs/ hold mistakes only the benchmark module sees, after the loader.
        try (Stream<Path> s = Stream.of(CORPUS, CORPUS.resolve("experiment"), CORPUS.resolve("ycsbivs"))
                .flatMap(CliRejectsBadConfigsTest::list)) {
            List<Path> files =
                    s.filter(p -> p.toString().endsWith(".xml")).sorted().toList();
            assertTrue(files.size() >= 40, "corpus has " + files.size() + " files");
            // The README does not hard-code the number: the corpus grows; this line says how big it is.
            System.out.println("CliRejectsBadConfigsTest: " + files.size() + " malformed configs in " + CORPUS
                    + " (with experiment/ and ycsbivs/)");
            return files.stream();
        }
    }

    private static Stream<Path> list(Path dir) {
        try {
            return Files.list(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void rejectedWithOneClearLineAndNoDatabaseTouched(Path file) throws IOException {
        Path results = Files.createDirectory(tmp.resolve("results"));
        try (DatabaseWatch watch = new DatabaseWatch(Files.createDirectory(tmp.resolve("work")))) {
            Path copy = watch.copy(file);
            // The expectation is read from the copy: where it quotes a watched address, it quotes the address
            // the run really sees.
            Matcher m =
                    EXPECT.matcher(Files.readAllLines(copy).stream().findFirst().orElse(""));
            assertTrue(m.find(), file + ": the first line must be <!-- expect: PATH | FRAGMENT -->");
            String path = m.group(1);
            String fragment = m.group(2);
            CliHarness.Result r = CliHarness.run(CliArgs.createLoadExecute(copy, results));
            assertEquals(2, r.code(), file + ": " + r.err());
            String err = r.err().strip();
            assertEquals(1, err.lines().count(), "one line: " + err);
            assertTrue(err.contains(path), file + ": expected path '" + path + "' in: " + err);
            assertTrue(err.contains(fragment), file + ": expected '" + fragment + "' in: " + err);
            assertEquals(List.of(), DatabaseWatch.listing(results), "no results folder");
            assertEquals(List.of(), watch.touched(), file + ": no database may be touched");
        }
    }

    /** The watch itself can fail: a config that is accepted creates its SQLite file where the watch looks. */
    @Test
    void theWatchSeesASqliteDatabaseBeingCreated() throws IOException {
        try (DatabaseWatch watch = new DatabaseWatch(Files.createDirectory(tmp.resolve("work")))) {
            Path copy = watch.copy(Path.of("src/test/resources/config/good/minimal.xml"));
            CliHarness.Result r = CliHarness.run("-b", "ycsbivs", "-c", copy.toString(), "--create");
            assertEquals(0, r.code(), r.err());
            List<String> touched = watch.touched();
            assertEquals(1, touched.size(), touched.toString());
            assertTrue(touched.get(0).contains("minimal.db"), touched.toString());
        }
    }

    /** ... and a server config that is accepted connects to the watch's socket, not to a real server. */
    @Test
    void theWatchSeesAServerConnection() throws IOException {
        Path work = Files.createDirectory(tmp.resolve("work"));
        String xml = Files.readString(Path.of("src/test/resources/config/good/minimal.xml"))
                .replace("<type>sqlite</type>", "<type>mariadb</type>")
                .replaceAll("<url>[^<]*</url>", "<url>jdbc:mariadb://127.0.0.1:3306/ivsbench</url>");
        Path server = Files.writeString(tmp.resolve("server.xml"), xml);
        try (DatabaseWatch watch = new DatabaseWatch(work)) {
            Path copy = watch.copy(server);
            assertTrue(!Files.readString(copy).contains("127.0.0.1:3306/"), "the real server's address is gone");
            CliHarness.Result r = CliHarness.run("-b", "ycsbivs", "-c", copy.toString(), "--create");
            assertEquals(1, r.code(), "the watch is no database server: " + r.err());
            assertTrue(
                    watch.touched().stream().anyMatch(t -> t.contains("127.0.0.1:3306")),
                    watch.touched().toString());
        }
    }
}
