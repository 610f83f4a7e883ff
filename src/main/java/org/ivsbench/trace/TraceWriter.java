package org.ivsbench.trace;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Writes a trace file (docs/trace.md): the header line, one line per record operation, and a trailer with the
 * read digests, all gzip-compressed. Terminals hand lines to a bounded queue and one writer thread does the I/O,
 * so memory stays constant; when the disk falls behind, terminals wait on the full queue (the trace stays
 * complete rather than lossy).
 */
public final class TraceWriter implements AutoCloseable {
    private static final int QUEUE = 8192;
    private static final String END = "\u0000end";
    static final ObjectMapper JSON = new ObjectMapper();

    /** Header and trailer lines (String) and records (ObjectNode), serialised by the writer thread. */
    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(QUEUE);

    private final Writer out;
    private final Thread thread;
    private final long startNanos = System.nanoTime();
    private final Map<Integer, ResultDigest> digests = new ConcurrentHashMap<>();
    private volatile IOException failure;
    private final LongAdder records = new LongAdder();
    private boolean closed;

    private TraceWriter(Writer out, String header) {
        this.out = out;
        this.thread = new Thread(this::drain, "trace-writer");
        this.thread.setDaemon(true);
        queue.add(header);
        thread.start();
    }

    /** Creates (replaces) the file and writes the header. */
    public static TraceWriter open(Path file, TraceHeader header) throws IOException {
        return open(file, header, Deflater.DEFAULT_COMPRESSION);
    }

    /**
     * Creates (replaces) the file and writes the header, compressing at {@code level} (a {@link Deflater} level:
     * the generator uses the fastest, where compression would otherwise be most of its time).
     */
    public static TraceWriter open(Path file, TraceHeader header, int level) throws IOException {
        GZIPOutputStream gzip = new GZIPOutputStream(Files.newOutputStream(file), 1 << 16) {
            {
                def.setLevel(level);
            }
        };
        Writer w = new BufferedWriter(new OutputStreamWriter(gzip, StandardCharsets.UTF_8), 1 << 16);
        return new TraceWriter(w, header.toJson());
    }

    /** Nanoseconds since the trace began: the time base of the records' offsets. */
    long offsetNanos() {
        return System.nanoTime() - startNanos;
    }

    /** The read digest of one terminal (created on first use). */
    ResultDigest digest(int terminal) {
        return digests.computeIfAbsent(terminal, t -> new ResultDigest());
    }

    /**
     * Hands one record to the writer thread, which serialises it: one long-lived JSON generator there rather than
     * one per record here, and the terminal (or the generator) goes on drawing meanwhile. The caller must not
     * change {@code record} afterwards.
     */
    void write(ObjectNode record) {
        // An interrupt must not drop a line: a gap in a terminal's sequence makes the whole trace unreadable.
        boolean interrupted = false;
        while (true) {
            try {
                queue.put(record);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        records.increment();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void drain() {
        JsonGenerator json;
        try {
            json = JSON.getFactory().createGenerator(out);
            json.setRootValueSeparator(null); // lines are ended by hand, one JSON value each
        } catch (IOException e) {
            failure = e;
            json = null;
        }
        try {
            while (true) {
                Object item = queue.take();
                if (item == END) {
                    break;
                }
                if (failure == null) { // after a failure, lines are taken and dropped so terminals never block
                    try {
                        if (item instanceof ObjectNode record) {
                            json.writeTree(record);
                        } else {
                            json.writeRaw((String) item);
                        }
                        json.writeRaw('\n');
                    } catch (IOException e) {
                        failure = e;
                    }
                }
            }
            if (failure == null) {
                json.flush();
            }
        } catch (IOException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes the trailer (record count, the terminals' and the total read digests) and closes the file. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        ObjectNode trailer = JSON.createObjectNode();
        trailer.put("end", true);
        trailer.put("records", records.sum());
        ObjectNode byTerminal = trailer.putObject("terminalDigests");
        Map<Integer, String> ds = new TreeMap<>();
        digests.forEach((t, d) -> ds.put(t, d.terminalDigest()));
        ds.forEach((t, d) -> byTerminal.put(Integer.toString(t), d));
        trailer.put("digest", ResultDigest.total(ds));
        try {
            queue.put(JSON.writeValueAsString(trailer));
            queue.put(END);
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while finishing the trace");
        } finally {
            out.close();
        }
        if (failure != null) {
            throw failure;
        }
    }
}
