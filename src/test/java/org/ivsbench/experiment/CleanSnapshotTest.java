package org.ivsbench.experiment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The logical clean snapshot on SQLite: what is restored is what was there when it was taken. */
class CleanSnapshotTest {
    private static final String TABLE = "snap";

    @TempDir
    Path tmp;

    private BenchmarkConfig config() throws Exception {
        return RunHarness.config(
                tmp,
                "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve("p.db")
                        + "</url><terminals>1</terminals><randomSeed>3</randomSeed><batchsize>7</batchsize>"
                        + "<recordcount>50</recordcount><fieldcount>3</fieldcount><fieldlength>10</fieldlength>"
                        + "<table>" + TABLE + "</table>"
                        + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                        + "<works><work><time>1</time><rate>unlimited</rate><weights>100</weights></work></works>"
                        + "<monitor><enabled>false</enabled></monitor></parameters>");
    }

    @Test
    void restoresTheStateAtSnapshotTimeIncludingLargeAndNonAsciiValues() throws Exception {
        BenchmarkConfig config = config();
        BenchmarkModule module = RunHarness.module();
        try (Target primary = Targets.open(config.target())) {
            module.create(config, primary);
            // A 1.6 MB value (the paper's cap), an empty one and multi-byte characters travel unchanged.
            Map<String, String> odd = new LinkedHashMap<>();
            odd.put("FIELD0", "x".repeat(1_600_000));
            odd.put("FIELD1", "");
            odd.put("FIELD2", "växt ✓ 𝄞");
            try (Session s = primary.openSession()) {
                s.insertBatch(
                        TABLE,
                        List.of(
                                new Record("user1", odd),
                                new Record("user2", Map.of("FIELD0", "a", "FIELD1", "b", "FIELD2", "c"))));
            }
            long before = ExperimentMariaDbTest.checksum(primary, TABLE);
            Path file = tmp.resolve("clean-snapshot.tmp");
            ValueSizeStats sizes = new ValueSizeStats();
            try (CleanSnapshot snapshot = CleanSnapshot.take(
                    ExperimentSpec.CleanMethod.LOGICAL, module, config, primary, TABLE, file, sizes)) {
                assertTrue(Files.size(file) > 1_600_000);
                // The value sizes come from the snapshot's own pass, equal to a pass of their own.
                assertTrue(snapshot.gaveSizes());
                ValueSizeStats own = ValueSizeStats.of(primary, TABLE);
                assertEquals(own.records(), sizes.records());
                assertEquals(own.totalBytes(), sizes.totalBytes());
                assertEquals(own.buckets(), sizes.buckets());
                // The primary changes after the snapshot (main's run phase may write)...
                try (Session s = primary.openSession()) {
                    s.update(TABLE, "user2", Map.of("FIELD0", "changed"));
                }
                assertTrue(before != ExperimentMariaDbTest.checksum(primary, TABLE));
                // ...the restore still holds the state at snapshot time.
                FreshDatabases.Built b = snapshot.restore(primary, config.target());
                try {
                    assertEquals(before, ExperimentMariaDbTest.checksum(b.target(), TABLE));
                    assertEquals(2, b.target().countRecords(TABLE));
                } finally {
                    FreshDatabases.drop(primary, b);
                }
            }
            assertFalse(Files.exists(file), "close() deletes the snapshot file");
        }
    }

    @Test
    void aTruncatedSnapshotIsAClearErrorNotAShortCopy() throws Exception {
        BenchmarkConfig config = config();
        BenchmarkModule module = RunHarness.module();
        try (Target primary = Targets.open(config.target())) {
            module.create(config, primary);
            module.load(config, primary, LoadProgress.NONE);
            Path file = tmp.resolve("clean-snapshot.tmp");
            try (CleanSnapshot snapshot = CleanSnapshot.take(
                    ExperimentSpec.CleanMethod.LOGICAL, module, config, primary, TABLE, file, new ValueSizeStats())) {
                byte[] all = Files.readAllBytes(file);
                Files.write(file, Arrays.copyOf(all, all.length / 2));
                TargetException e =
                        assertThrows(TargetException.class, () -> snapshot.restore(primary, config.target()));
                assertTrue(e.getMessage().contains("truncated"), e.getMessage());
                assertFalse(Files.exists(tmp.resolve("ivs_clean.db")), "no half-restored database is left");
            }
        }
    }
}
