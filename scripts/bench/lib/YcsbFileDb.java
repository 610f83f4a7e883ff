import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A YCSB "database" that writes every operation YCSB's client generates to a gzip file of JSON lines, the way
 * ivsbench's {@code generate} writes its trace: key, field list and every value written, deflate at its fastest
 * level, through a 1 MB buffer (the Tectonic paper adapted YCSB the same way: every operation to a file through a
 * 1 MB BufferedWriter). scripts/bench/generator-speed.sh compiles it against YCSB's core library and runs YCSB's
 * own client with it beside ivsbench's generator. One instance per client thread; the file is the property
 * {@code filedb.out}, with the thread's number appended after the first.
 */
public class YcsbFileDb extends DB {
    private static final Object LOCK = new Object();
    private static int instances;
    private Writer out;
    private final StringBuilder line = new StringBuilder(2048);

    @Override
    public void init() throws DBException {
        String file = getProperties().getProperty("filedb.out");
        if (file == null) {
            throw new DBException("filedb.out: not set (the gzip file to write)");
        }
        int n;
        synchronized (LOCK) {
            n = instances++;
        }
        try {
            OutputStream raw = Files.newOutputStream(Path.of(n == 0 ? file : file + "." + n));
            GZIPOutputStream gz = new GZIPOutputStream(raw, 1 << 16) {
                {
                    def.setLevel(Deflater.BEST_SPEED);
                }
            };
            out = new OutputStreamWriter(new BufferedOutputStream(gz, 1 << 20), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DBException(e);
        }
    }

    @Override
    public void cleanup() throws DBException {
        try {
            out.close();
        } catch (IOException e) {
            throw new DBException(e);
        }
    }

    private Status emit() {
        line.append("}\n");
        try {
            out.append(line);
        } catch (IOException e) {
            return Status.ERROR;
        }
        return Status.OK;
    }

    private void start(String op, String key) {
        line.setLength(0);
        line.append("{\"op\":\"").append(op).append("\",\"key\":");
        string(key);
    }

    private void string(String s) {
        line.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                line.append('\\');
            }
            line.append(c);
        }
        line.append('"');
    }

    private void fields(Set<String> fields) {
        line.append(",\"fields\":");
        if (fields == null) {
            line.append("null");
            return;
        }
        line.append('[');
        boolean first = true;
        for (String f : fields) {
            if (!first) {
                line.append(',');
            }
            first = false;
            string(f);
        }
        line.append(']');
    }

    private void values(Map<String, ByteIterator> values) {
        line.append(",\"values\":{");
        boolean first = true;
        for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
            if (!first) {
                line.append(',');
            }
            first = false;
            string(e.getKey());
            line.append(':');
            string(e.getValue().toString());
        }
        line.append('}');
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        start("read", key);
        fields(fields);
        return emit();
    }

    @Override
    public Status scan(
            String table, String startkey, int count, Set<String> fields, Vector<HashMap<String, ByteIterator>> result) {
        start("scan", startkey);
        line.append(",\"count\":").append(count);
        fields(fields);
        return emit();
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        start("update", key);
        values(values);
        return emit();
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        start("insert", key);
        values(values);
        return emit();
    }

    @Override
    public Status delete(String table, String key) {
        start("delete", key);
        return emit();
    }
}
