package org.ivsbench.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RampConfig;
import org.ivsbench.config.RateSpec;

/**
 * Writes summary.json (docs/results-format.md). Every write replaces the file atomically, so a reader (or a
 * crash) never sees half a summary.
 */
public final class SummaryWriter {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path file;

    public SummaryWriter(Path file) {
        this.file = file;
    }

    public void write(
            RunInfo run, long startMs, long endMs, boolean complete, boolean interrupted, List<PhaseSummary> phases)
            throws IOException {
        write(run, startMs, endMs, complete, interrupted, phases, Map.of());
    }

    /** {@code facts}: extra top-level blocks (a shard's {@code shard} block), written after {@code windowSeconds}. */
    public void write(
            RunInfo run,
            long startMs,
            long endMs,
            boolean complete,
            boolean interrupted,
            List<PhaseSummary> phases,
            Map<String, Object> facts)
            throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("tool", Map.of("name", "ivsbench", "version", run.toolVersion()));
        root.put("benchmark", run.benchmark());
        root.put("complete", complete);
        root.put("interrupted", interrupted);
        root.put("database", run.database());
        root.put("configDigest", run.configDigest());
        root.put("randomSeed", run.randomSeed());
        root.put("terminals", run.terminals());
        root.put("windowSeconds", run.windowSeconds());
        new TreeMap<>(facts).forEach(root::put);
        root.put("startMs", startMs);
        root.put("endMs", endMs);
        root.put(
                "phases",
                phases.stream().map(p -> phase(run.phases().get(p.index()), p)).toList());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        JSON.writeValue(tmp.toFile(), root);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public static Map<String, Object> phase(PhaseConfig config, PhaseSummary p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", p.index());
        m.put("name", p.name());
        m.put("startMs", p.startMs());
        m.put("measuredStartMs", p.measuredStartMs());
        m.put("endMs", p.endMs());
        m.put("measuredSeconds", p.measuredSeconds());
        m.put("rate", rate(config));
        m.put("maxLatenessMs", config.rate().isOpen() ? config.maxLatenessMs() : null);
        m.put("activeTerminals", config.activeTerminals());
        m.put("warmupOperations", p.warmupOperations());
        m.put("missed", p.missed());
        m.put("operations", p.counts().total());
        m.put("throughput", p.throughput());
        m.put("goodput", p.goodput());
        m.put("counts", p.counts().asMap());
        m.put("responseTimeUs", latency(p.responseTimeUs()));
        m.put("serviceTimeUs", latency(p.serviceTimeUs()));
        m.put("startLagUs", latency(p.startLagUs()));
        m.put("missedLatenessUs", latency(p.missedLatenessUs()));
        m.put("bytesRead", p.bytesRead());
        m.put("bytesWritten", p.bytesWritten());
        Map<String, Object> types = new LinkedHashMap<>();
        p.transactions().forEach((name, t) -> {
            Map<String, Object> tm = new LinkedHashMap<>();
            tm.put("operations", t.counts().total());
            tm.put("throughput", t.throughput());
            tm.put("goodput", t.goodput());
            tm.put("counts", t.counts().asMap());
            tm.put("responseTimeUs", latency(t.responseTimeUs()));
            tm.put("serviceTimeUs", latency(t.serviceTimeUs()));
            tm.put("bytesRead", t.bytesRead());
            tm.put("bytesWritten", t.bytesWritten());
            tm.put("errors", t.errors());
            types.put(name, tm);
        });
        m.put("transactions", types);
        return m;
    }

    private static Map<String, Object> rate(PhaseConfig c) {
        Map<String, Object> m = new LinkedHashMap<>();
        RateSpec r = c.rate();
        m.put("kind", r.kind().name().toLowerCase(Locale.ROOT));
        m.put("target", r.isOpen() ? r.opsPerSecond() : null);
        m.put("arrival", r.isOpen() ? c.arrival().name().toLowerCase(Locale.ROOT) : null);
        if (c.ramp() != null && c.ramp().rampsRate()) {
            // Only in ramped phases, so the summaries of other runs keep their shape.
            Map<String, Object> ramp = new LinkedHashMap<>();
            ramp.put("shape", c.ramp().shape().name().toLowerCase(Locale.ROOT));
            ramp.put(
                    "everySeconds",
                    c.ramp().shape() == RampConfig.Shape.STEP ? c.ramp().everySeconds() : null);
            ramp.put("target", c.ramp().rate());
            m.put("ramp", ramp);
        }
        return m;
    }

    private static Map<String, Object> latency(LatencySummary l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("avg", l.avg());
        m.put("stddev", l.stddev());
        m.put("p50", l.p50());
        m.put("p90", l.p90());
        m.put("p95", l.p95());
        m.put("p99", l.p99());
        m.put("p999", l.p999());
        m.put("max", l.max());
        return m;
    }
}
