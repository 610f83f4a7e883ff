package org.ivsbench.experiment;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.TargetConfig;
import org.ivsbench.db.NativeSnapshot;
import org.ivsbench.db.Record;
import org.ivsbench.db.Session;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;

/**
 * clean-run's copy of the primary as the paper's dump holds it: the state at the end of the extend phase, into a
 * file (after a main run phase that only reads, before one that writes: {@link EpochLoop}); restored into a
 * fresh database only when clean's turn comes. A run phase that writes (the paper's 50:50 READ/UPDATE mix)
 * therefore cannot leak into the clean copy, and the
 * clean row of epochs.csv describes the state it really read.
 *
 * <p>Two ways: {@code logical} streams the records through the Target into a file of its own (length-prefixed
 * UTF-8; constant memory) and reinserts them in batches; {@code native} is the server's own dump and restore tools
 * ({@link NativeSnapshot}, where the target's kind has them). snapshot_ms is the dump, restore_ms the restore. {@link #close()} deletes the file.
 */
abstract class CleanSnapshot implements AutoCloseable {
    private static final int MAGIC = 0x49565331; // "IVS1"
    private static final int END = -1;

    protected final Path file;
    private final long snapshotMs;

    private CleanSnapshot(Path file, long snapshotMs) {
        this.file = file;
        this.snapshotMs = snapshotMs;
    }

    long snapshotMs() {
        return snapshotMs;
    }

    /**
     * Whether taking the snapshot filled the value sizes passed to {@link #take} (logical: the same pass), so no
     * second pass over the primary is needed for them.
     */
    boolean gaveSizes() {
        return false;
    }

    /** The snapshot restored into database {@link FreshDatabases#CLEAN} of {@code server}. */
    abstract FreshDatabases.Built restore(Target server, TargetConfig serverConfig) throws TargetException;

    @Override
    public void close() {
        deleteQuietly(file); // one left behind is removed with its epoch's folder on --resume
    }

    /**
     * Takes the snapshot with the configured method into {@code file} (replaced if it exists); a logical one adds
     * every record it copies to {@code sizes} on the way ({@link #gaveSizes()}).
     */
    static CleanSnapshot take(
            ExperimentSpec.CleanMethod method,
            BenchmarkModule module,
            BenchmarkConfig config,
            Target primary,
            String table,
            Path file,
            ValueSizeStats sizes)
            throws TargetException {
        return method == ExperimentSpec.CleanMethod.NATIVE
                ? nativeDump(primary, table, file)
                : logical(module, config, primary, table, file, sizes);
    }

    private static CleanSnapshot nativeDump(Target primary, String table, Path file) throws TargetException {
        long ms = nativeSnapshot(primary).dump(table, file);
        return new CleanSnapshot(file, ms) {
            @Override
            FreshDatabases.Built restore(Target server, TargetConfig serverConfig) throws TargetException {
                long restoreMs = nativeSnapshot(server).restore(file, FreshDatabases.CLEAN);
                return new FreshDatabases.Built(
                        FreshDatabases.admin(server).withDatabase(FreshDatabases.CLEAN),
                        FreshDatabases.CLEAN,
                        snapshotMs(),
                        restoreMs);
            }
        };
    }

    private static NativeSnapshot nativeSnapshot(Target target) throws TargetException {
        return target.capability(NativeSnapshot.class)
                .orElseThrow(() -> new TargetException(
                        "clean/method native: type " + target.kind().names().get(0) + " has no native snapshot"));
    }

    private static CleanSnapshot logical(
            BenchmarkModule module,
            BenchmarkConfig config,
            Target primary,
            String table,
            Path file,
            ValueSizeStats sizes)
            throws TargetException {
        long start = System.nanoTime();
        try (DataOutputStream out =
                new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
            out.writeInt(MAGIC);
            primary.forEachRecord(table, r -> {
                sizes.add(r);
                try {
                    writeString(out, r.key());
                    out.writeInt(r.fields().size());
                    for (Map.Entry<String, String> f : r.fields().entrySet()) {
                        writeString(out, f.getKey());
                        writeString(out, f.getValue());
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            out.writeInt(END);
        } catch (IOException | UncheckedIOException e) {
            deleteQuietly(file);
            throw new TargetException("clean snapshot: cannot write " + file + ": " + e.getMessage(), e, false);
        } catch (TargetException | RuntimeException e) {
            deleteQuietly(file);
            throw e;
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        int batchSize = Math.max(1, config.batchSize());
        return new CleanSnapshot(file, ms) {
            @Override
            boolean gaveSizes() {
                return true;
            }

            @Override
            FreshDatabases.Built restore(Target server, TargetConfig serverConfig) throws TargetException {
                long t0 = System.nanoTime();
                Target fresh = FreshDatabases.open(module, config, server, FreshDatabases.CLEAN);
                try {
                    reinsert(file, fresh, table, batchSize);
                } catch (TargetException | RuntimeException e) {
                    fresh.close();
                    try {
                        FreshDatabases.admin(server)
                                .dropDatabase(FreshDatabases.CLEAN); // no half-restored scratch database lingers
                    } catch (TargetException dropFailed) {
                        e.addSuppressed(dropFailed);
                    }
                    throw e;
                }
                return new FreshDatabases.Built(
                        fresh, FreshDatabases.CLEAN, snapshotMs(), (System.nanoTime() - t0) / 1_000_000);
            }
        };
    }

    /** Reads the logical snapshot back in batches of {@code batchSize} (memory bounded by one batch). */
    private static void reinsert(Path file, Target fresh, String table, int batchSize) throws TargetException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
                Session session = fresh.openSession()) {
            if (in.readInt() != MAGIC) {
                throw new TargetException("clean snapshot " + file + " is not an ivsbench snapshot");
            }
            List<Record> batch = new ArrayList<>(batchSize);
            for (int keyLength = in.readInt(); keyLength != END; keyLength = in.readInt()) {
                String key = readString(in, keyLength);
                int fields = in.readInt();
                Map<String, String> values = new LinkedHashMap<>();
                for (int i = 0; i < fields; i++) {
                    String name = readString(in, in.readInt());
                    values.put(name, readString(in, in.readInt()));
                }
                batch.add(new Record(key, values));
                if (batch.size() >= batchSize) {
                    session.insertBatch(table, batch);
                    batch.clear();
                }
            }
            if (!batch.isEmpty()) {
                session.insertBatch(table, batch);
            }
        } catch (EOFException e) {
            throw new TargetException("clean snapshot " + file + " is truncated (it ends inside a record)", e, false);
        } catch (IOException e) {
            throw new TargetException("clean snapshot: cannot read " + file + ": " + e.getMessage(), e, false);
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(DataInputStream in, int length) throws IOException {
        if (length < 0) {
            throw new IOException("corrupt snapshot (negative length " + length + ")");
        }
        byte[] b = in.readNBytes(length);
        if (b.length != length) {
            throw new EOFException("snapshot ends inside a value");
        }
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // nothing more to do
        }
    }
}
