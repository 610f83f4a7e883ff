package org.ivsbench.trace;

import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A whole trace read back: header, each terminal's record operations in sequence order, and the recorded
 * digests. Held in memory (the replay needs each terminal's stream at once); a trace is read fully, so a
 * truncated or damaged file is refused before anything runs.
 */
public final class Trace {
    private final TraceHeader header;
    private final Map<Integer, List<TraceRecord>> byTerminal;
    private final String digest;
    private final long records;

    private Trace(TraceHeader header, Map<Integer, List<TraceRecord>> byTerminal, String digest, long records) {
        this.header = header;
        this.byTerminal = byTerminal;
        this.digest = digest;
        this.records = records;
    }

    public TraceHeader header() {
        return header;
    }

    /** The recorded total digest of the reads. */
    public String digest() {
        return digest;
    }

    public long records() {
        return records;
    }

    Map<Integer, List<TraceRecord>> byTerminal() {
        return byTerminal;
    }

    public static Trace read(Path file) throws TraceException {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(file), 1 << 16), StandardCharsets.UTF_8),
                1 << 16)) {
            String first = in.readLine();
            TraceHeader header = TraceHeader.fromJson(first == null ? null : parse(first, 1));
            Map<Integer, List<TraceRecord>> byTerminal = new TreeMap<>();
            long count = 0;
            long lineNo = 1;
            String line;
            while ((line = in.readLine()) != null) {
                lineNo++;
                JsonNode n = parse(line, lineNo);
                if (n.path("end").asBoolean()) {
                    if (in.readLine() != null) {
                        throw new TraceException("line " + (lineNo + 1) + ": data after the end line");
                    }
                    if (n.path("records").asLong(-1) != count) {
                        throw new TraceException("the end line counts "
                                + n.path("records").asText() + " records but" + " the file holds " + count);
                    }
                    return new Trace(header, byTerminal, n.path("digest").asText(), count);
                }
                TraceRecord r;
                try {
                    r = TraceRecord.fromJson(n);
                } catch (RuntimeException e) {
                    throw new TraceException("line " + lineNo + ": not a trace record (" + e.getMessage() + ")");
                }
                List<TraceRecord> own = byTerminal.computeIfAbsent(r.terminal(), t -> new ArrayList<>());
                if (r.seq() != own.size()) {
                    throw new TraceException("line " + lineNo + ": terminal " + r.terminal() + " operation " + r.seq()
                            + " where " + own.size() + " was due (the file is damaged)");
                }
                own.add(r);
                count++;
            }
            throw new TraceException("truncated: no end line after " + count + " records");
        } catch (NoSuchFileException e) {
            throw new TraceException("does not exist");
        } catch (EOFException e) {
            throw new TraceException("truncated (the compressed data ends early)");
        } catch (ZipException e) {
            throw new TraceException("not a gzip-compressed trace (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new TraceException("cannot be read: " + e.getMessage());
        }
    }

    private static JsonNode parse(String line, long lineNo) throws TraceException {
        try {
            return TraceWriter.JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new TraceException("line " + lineNo + ": not JSON (the file is damaged)");
        }
    }
}
