package org.ivsbench.cli;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The monitor's subcommands (import-dstat, monitor-overhead, monitor-agent) as a user types them. */
class MonitorCommandsTest {
    @TempDir
    Path tmp;

    private static void assertUsage(CliHarness.Result r, String... fragments) {
        assertEquals(2, r.code(), "exit code; stdout: " + r.out() + "\nstderr: " + r.err());
        String err = r.err().strip();
        assertEquals(1, err.lines().count(), "exactly one line: " + err);
        for (String f : fragments) {
            assertTrue(err.contains(f), "'" + f + "' in: " + err);
        }
    }

    @ParameterizedTest
    @CsvSource({"import-dstat, MONITOR_CSV", "monitor-overhead, --db-password-env", "monitor-agent, --secret-file"})
    void helpListsTheOptions(String command, String option) {
        CliHarness.Result r = CliHarness.run(command, "--help");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Usage: benchbase " + command) && r.out().contains(option), r.out());
    }

    @Test
    void mainHelpListsTheSubcommands() {
        String out = CliHarness.run("--help").out();
        for (String command : List.of("monitor-agent", "import-dstat", "monitor-overhead")) {
            assertTrue(out.contains(command), command + " in: " + out);
        }
    }

    @Test
    void importDstatConvertsADoolCsv() throws Exception {
        Path in = tmp.resolve("dool.csv");
        try (InputStream s = getClass().getResourceAsStream("/org/ivsbench/monitor/dool.csv")) {
            Files.copy(s, in);
        }
        Path out = tmp.resolve("monitor.csv");
        CliHarness.Result r = CliHarness.run("import-dstat", in.toString(), out.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("wrote " + out, r.out().strip());
        List<String> lines = Files.readAllLines(out);
        List<String> header = List.of(lines.get(0).split(",", -1));
        assertEquals(List.of("time_ms", "interval_ms", "phase", "source", "os.cpu.usr_pct"), header.subList(0, 5));
        assertEquals(4, lines.size(), "header and three rows (the since-boot row is dropped): " + lines);
        List<String> first = List.of(lines.get(1).split(",", -1));
        assertEquals("1795380000000", first.get(0));
        assertEquals("dstat", first.get(3));
        assertEquals(20.5, Double.parseDouble(first.get(4)));
    }

    @Test
    void importDstatRefusesAFileThatIsNotDstat() throws Exception {
        Path in = Files.writeString(tmp.resolve("x.csv"), "a,b\n1,2\n");
        CliHarness.Result r = CliHarness.run(
                "import-dstat", in.toString(), tmp.resolve("m.csv").toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("x.csv") && r.err().contains("no dstat/dool column header"), r.err());
    }

    @Test
    void importDstatNeedsBothFiles() {
        assertUsage(CliHarness.run("import-dstat", "only.csv"), "MONITOR_CSV");
    }

    @Test
    void monitorOverheadMeasuresAFewSamplesWithoutADatabase() {
        CliHarness.Result r = CliHarness.run("monitor-overhead", "--samples", "2", "--interval", "100", "--fast", "3");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("fast, host (back to back, 3 samples): cpu "), r.out());
        assertTrue(r.out().contains("paced, host (2 samples every 100 ms): cpu "), r.out());
        assertTrue(!r.out().contains("db counters"), "no database figures without --db-url: " + r.out());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--samples abc | --samples | abc",
                "--samples -1 | --samples | -1",
                "--interval 0 | --interval | 0",
                "--pid 1 --process-name mariadbd | --pid | mariadbd",
                "--db-user ivs | --db-user | --db-url",
                "--db-url jdbc:sqlite:x.db | --db-url | jdbc:sqlite:x.db",
                "--bogus 1 | --bogus | --bogus"
            })
    void monitorOverheadRejectsBadOptions(String args, String option, String value) {
        String[] argv = ("monitor-overhead --fast 0 " + args).split(" ");
        assertUsage(CliHarness.run(argv), option, value);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--interval 1000 | --listen | --listen",
                "--listen 127.0.0.1:1 --bogus x | --bogus | --bogus",
                "--listen nohostport | --listen | nohostport",
                "--listen 127.0.0.1:99999 | --listen | 127.0.0.1:99999",
                "--listen 127.0.0.1:0 --interval x | --interval | x",
                "--listen 127.0.0.1:0 --interval -5 | --interval | -5",
                "--listen 127.0.0.1:0 --pid-file a --process-name b | --pid-file | b"
            })
    void monitorAgentRejectsBadOptions(String args, String option, String value) {
        assertUsage(CliHarness.run(("monitor-agent " + args).split(" ")), option, value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"empty", "missing"})
    void monitorAgentRejectsAnEmptyOrMissingSecretFile(String which) throws Exception {
        Path file = tmp.resolve(which);
        if (which.equals("empty")) {
            Files.writeString(file, "");
        }
        assertUsage(
                CliHarness.run("monitor-agent", "--listen", "127.0.0.1:0", "--secret-file", file.toString()),
                "--secret-file",
                file.toString());
    }

    @Test
    void monitorAgentRejectsAKeyStoreItCannotUseInOneLine() throws Exception {
        Path store = tmp.resolve("agent.p12");
        org.ivsbench.testsupport.KeyTool.keyPair(store, "store-pw-1", "agent");
        Path wrong = Files.writeString(tmp.resolve("wrong.pw"), "not-the-password\n");
        assertUsage(
                CliHarness.run("monitor-agent", "--listen", "127.0.0.1:0", "--keystore", store.toString()),
                "--keystore",
                "without --keystore-password-file");
        CliHarness.Result r = CliHarness.run(
                "monitor-agent",
                "--listen",
                "127.0.0.1:0",
                "--keystore",
                store.toString(),
                "--keystore-password-file",
                wrong.toString());
        assertUsage(r, "--keystore", store.toString(), "wrong password");
        assertTrue(!r.err().contains("not-the-password"), r.err());
    }
}
