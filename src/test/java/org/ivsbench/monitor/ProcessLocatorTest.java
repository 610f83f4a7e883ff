package org.ivsbench.monitor;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which process the monitor watches as "the database server". */
class ProcessLocatorTest {
    @TempDir
    Path proc;

    private void process(long pid, String comm, String... sockets) throws Exception {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)).resolve("fd"));
        Files.writeString(proc.resolve(Long.toString(pid)).resolve("comm"), comm + "\n");
        int fd = 3;
        for (String inode : sockets) {
            Files.createSymbolicLink(dir.resolve(Integer.toString(fd++)), Path.of("socket:[" + inode + "]"));
        }
    }

    /** Two servers of one name (an experiment's primary and its fresh instance): the port decides. */
    @Test
    void thePortPicksTheServerTheBenchmarkTalksTo() throws Exception {
        Files.createDirectories(proc.resolve("net"));
        String header =
                "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
        Files.writeString(
                proc.resolve("net").resolve("tcp"),
                header
                        + "   0: 0100007F:0CEA 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 555 1 0\n"
                        // an established connection on the same port is not the listener
                        + "   1: 0100007F:8182 0100007F:D000 01 00000000:00000000 00:00000000 00000000     0        0 999 1 0\n");
        Files.writeString(
                proc.resolve("net").resolve("tcp6"),
                header
                        + "   0: 00000000000000000000000000000000:8182 00000000000000000000000000000000:0000 0A 00000000:00000000"
                        + " 00:00000000 00000000     0        0 777 1 0\n");
        process(10, "mariadbd", "555");
        process(20, "mariadbd", "999", "777");
        process(30, "java", "999");

        assertEquals(
                OptionalLong.of(20),
                ProcessLocator.listeningOn(0x8182, "mariadbd").withProcDir(proc).locate());
        assertEquals(
                OptionalLong.of(10),
                ProcessLocator.listeningOn(3306, "mariadbd").withProcDir(proc).locate());
        // By name alone: the lowest pid, which is the other server here.
        assertEquals(
                OptionalLong.of(10),
                ProcessLocator.processName("mariadbd").withProcDir(proc).locate());
        // Nobody listens on the port (not started yet): the name is the fallback, or nothing.
        assertEquals(
                OptionalLong.of(10),
                ProcessLocator.listeningOn(9999, "mariadbd").withProcDir(proc).locate());
        assertEquals(
                OptionalLong.empty(),
                ProcessLocator.listeningOn(9999, null).withProcDir(proc).locate());
    }

    @Test
    void aPidFileIsReadByItsFirstLineAsPostgresWritesIt() throws Exception {
        Path mariadb = Files.writeString(proc.resolve("mariadbd.pid"), "4242\n");
        Path postgres = Files.writeString(
                proc.resolve("postmaster.pid"), "6390\n/var/lib/postgresql/data\n1796170000\n25432\n/tmp\n");
        assertEquals(4242, ProcessLocator.pidFile(mariadb).locate().getAsLong());
        assertEquals(6390, ProcessLocator.pidFile(postgres).locate().getAsLong());
        assertTrue(ProcessLocator.pidFile(Files.writeString(proc.resolve("empty.pid"), "\n"))
                .locate()
                .isEmpty());
    }

    @Test
    void findsThisJvmByTheRealSocketItListensOn() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            OptionalLong pid =
                    ProcessLocator.listeningOn(server.getLocalPort(), null).locate();
            assertTrue(pid.isPresent(), "found");
            assertEquals(ProcessHandle.current().pid(), pid.getAsLong());
        }
    }
}
