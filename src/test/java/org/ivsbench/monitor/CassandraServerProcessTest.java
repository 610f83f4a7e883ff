package org.ivsbench.monitor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.TargetKind;
import org.ivsbench.db.TargetKinds;
import org.ivsbench.db.cassandra.CassandraFixture;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * proc.* on Cassandra watch the JVM that listens on the URL's native port, never another JVM (the benchmark
 * itself is one too): the kind gives no process name to fall back on.
 */
class CassandraServerProcessTest {

    @Test
    void theLocalServerIsFoundByItsNativePort(@TempDir Path dir) throws Exception {
        BenchmarkConfig config = RunHarness.config(
                dir,
                "<parameters>" + CassandraFixture.connection()
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><count>1</count><rate>unlimited</rate><weights>100</weights></work></works>"
                        + "</parameters>");
        TargetKind kind = TargetKinds.of("CASSANDRA");
        long expected = Long.parseLong(
                Files.readString(Path.of(CassandraFixture.pidFile())).trim());
        assertEquals(
                OptionalLong.of(expected),
                RunMonitor.serverProcess(config, kind).locate());
        assertTrue(RunMonitor.isLocal(kind, config.target().url()));
    }

    @Test
    void noServerListeningMeansNoProcessRatherThanSomeJvm() {
        ProcessLocator nobody = ProcessLocator.listeningOn(
                1, TargetKinds.of("CASSANDRA").serverProcess().orElseThrow().processName());
        assertEquals(OptionalLong.empty(), nobody.locate(), "this JVM is a java process but must not be chosen");
    }
}
