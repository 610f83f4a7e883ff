package org.ivsbench.trace;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.op.OpResult;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceFileTest {
    @TempDir
    Path tmp;

    private static final String HEADER = "{\"trace\":\"ivsbench-trace\",\"format\":1,\"benchmark\":\"ycsbivs\"}\n";

    private Path gzip(String text) throws IOException {
        Path p = tmp.resolve("t.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    @Test
    void whatIsWrittenIsReadBackWithItsDigest() throws Exception {
        Path file = tmp.resolve("w.gz");
        TraceWriter writer = TraceWriter.open(file, TraceHeader.of("test", "abc", "ycsbivs", 7, 1));
        TerminalTrace t = new TerminalTrace(writer, 0);
        t.operationStarts();
        ObjectNode read = t.record(TraceOp.READ, "tbl", "user1");
        String hash = ResultDigest.ofRead(OpResult.ok(), Map.of("f0", "v"));
        t.finishRead(read, OpResult.ok(), hash);
        ObjectNode update = t.record(TraceOp.UPDATE, "tbl", "user1");
        update.putObject("values").put("f0", "w\n\"x\"");
        t.finish(update, OpResult.ok());
        writer.close();

        Trace trace = Trace.read(file);
        assertEquals(2, trace.records());
        assertEquals("abc", trace.header().configDigest());
        ResultDigest expected = new ResultDigest();
        expected.add(0, hash);
        assertEquals(ResultDigest.total(Map.of(0, expected.terminalDigest())), trace.digest());
        List<TraceRecord> records = trace.byTerminal().get(0);
        assertEquals(hash, records.get(0).hash());
        assertEquals(Map.of("f0", "w\n\"x\""), records.get(1).values());
    }

    @Test
    void aMissingEndLineIsATruncatedTrace() throws Exception {
        TraceException e = assertThrows(TraceException.class, () -> Trace.read(gzip(HEADER)));
        assertEquals("truncated: no end line after 0 records", e.getMessage());
    }

    @Test
    void aGapInATerminalsSequenceIsDamage() throws Exception {
        String rec =
                "{\"t\":0,\"s\":1,\"p\":0,\"o\":5,\"op\":\"delete\",\"table\":\"x\",\"key\":\"k\",\"outcome\":\"OK\"}\n";
        TraceException e = assertThrows(TraceException.class, () -> Trace.read(gzip(HEADER + rec)));
        assertTrue(e.getMessage().startsWith("line 2: terminal 0 operation 1 where 0 was due"), e.getMessage());
    }
}
