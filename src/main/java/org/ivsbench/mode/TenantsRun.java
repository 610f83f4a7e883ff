package org.ivsbench.mode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.ConfigRedactor;
import org.ivsbench.db.Target;
import org.ivsbench.run.MeasuredRun;
import org.ivsbench.run.NextStep;
import org.ivsbench.run.RunFolder;
import org.ivsbench.run.RunLifecycle;
import org.ivsbench.run.Stopping;
import org.ivsbench.stats.RunInfo;
import org.ivsbench.stats.TenantTimeline;

/**
 * Several configs at once: each tenant is a {@link MeasuredRun} of its own phases in its own thread and results
 * subfolder, all released by one gate (one start instant), ended by one stop (a signal, or the first tenant
 * that fails: the others are stopped so the timeline does not go on without it) under one {@link RunLifecycle}.
 * The parent folder gets tenants.csv (every tenant's windows on one clock) and tenants.json (who ran what, and
 * when each one's first phase really began).
 */
public final class TenantsRun implements RunLifecycle.Work {
    public record Tenant(TenantSpec spec, BenchmarkModule module, BenchmarkConfig config, Target target) {}

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final List<Tenant> tenants;
    private final PrintStream out;
    private final List<MeasuredRun> runs = new ArrayList<>();
    private final Exception[] failures;
    private Path dir;
    private int windowSeconds;
    /** Every tenant's first phase waits here until all tenants have opened their sessions: one start instant. */
    private CyclicBarrier firstPhase;

    /** Stops every tenant: a signal, or the first tenant that fails. */
    private final Stopping stopping = new Stopping();

    public TenantsRun(List<Tenant> tenants, PrintStream out) {
        this.tenants = List.copyOf(tenants);
        this.out = out;
        this.failures = new Exception[tenants.size()];
    }

    /** Makes {@code <parent>/tenants_<time>/<tenant>/} and runs all tenants; returns the exit code. */
    public int execute(Path parent, int windowSeconds, List<String> commandLine) throws IOException, ConfigException {
        this.windowSeconds = windowSeconds;
        dir = RunFolder.create(parent, "tenants");
        RunFolder folder = new RunFolder(commandLine, windowSeconds);
        for (Tenant t : tenants) {
            Path sub = Files.createDirectory(dir.resolve(t.spec().name()));
            String redacted = ConfigRedactor.redactedXml(t.spec().config());
            RunInfo info = folder.prepare(sub, redacted, t.module(), t.config(), t.target());
            runs.add(new MeasuredRun(t.module(), t.config(), t.target(), sub, info));
        }
        out.println("Results: " + dir);
        return new RunLifecycle("tenants run", this, System.err).run();
    }

    @Override
    public void run() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        firstPhase = new CyclicBarrier(runs.size());
        stopping.onRequest(firstPhase::reset); // frees the tenants still waiting at the start gate
        for (MeasuredRun r : runs) {
            r.manager().setStartGate(this::awaitAllTenants);
        }
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            int index = i;
            Thread thread = new Thread(
                    () -> runTenant(index, gate),
                    "tenant-" + tenants.get(i).spec().name());
            threads.add(thread);
            thread.start();
        }
        out.println("Started " + tenants.size() + " tenants: "
                + String.join(", ", tenants.stream().map(t -> t.spec().name()).toList()));
        gate.countDown();
        try {
            joinAll(threads);
        } finally {
            finish();
        }
        for (int i = 0; i < failures.length; i++) {
            if (failures[i] != null) {
                throw new Exception(
                        "tenant " + tenants.get(i).spec().name() + ": " + failures[i].getMessage(), failures[i]);
            }
        }
    }

    private void runTenant(int index, CountDownLatch gate) {
        try {
            gate.await();
            failures[index] = stopping.execute(runs.get(index));
        } catch (InterruptedException e) {
            // Interrupted before the start: this tenant cannot run, so none does (the one stop of the mode).
            Thread.currentThread().interrupt();
            stopping.request();
        } catch (Exception | Error e) {
            failures[index] = e instanceof Exception ex ? ex : new Exception(e.toString(), e);
        }
        if (failures[index] != null) {
            stop();
        }
    }

    /**
     * The start gate of every tenant's manager (its terminals' sessions are open): returns when all tenants got
     * there. A tenant that fails or a stop breaks the barrier; the others then start and see the stop at once.
     */
    private void awaitAllTenants() throws InterruptedException {
        try {
            firstPhase.await();
        } catch (BrokenBarrierException e) {
            if (!stopping.requested()) {
                throw new IllegalStateException("another tenant failed before the first phase", e);
            }
        }
    }

    /** A signal while waiting stops every tenant; the threads are still joined so their results get written. */
    private void joinAll(List<Thread> threads) throws InterruptedException {
        boolean interrupted = false;
        for (Thread t : threads) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                    stop();
                }
            }
        }
        if (interrupted) {
            throw new InterruptedException();
        }
    }

    private void finish() throws IOException {
        for (int i = 0; i < runs.size(); i++) {
            runs.get(i).close();
            out.println();
            out.println("Tenant " + tenants.get(i).spec().name() + ":");
            SummaryTable.print(out, runs.get(i).summaries());
        }
        List<String> names = tenants.stream().map(t -> t.spec().name()).toList();
        out.println("Timeline: " + TenantTimeline.write(dir, names));
        writeIndex();
        out.println("Results: " + dir);
        out.println(NextStep.line(dir));
    }

    /** tenants.json: the tenants, their folders and configs, and how far apart their first phases began. */
    private void writeIndex() throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("windowSeconds", windowSeconds);
        ArrayNode list = root.putArray("tenants");
        long minStart = Long.MAX_VALUE;
        long maxStart = Long.MIN_VALUE;
        for (int i = 0; i < tenants.size(); i++) {
            Tenant t = tenants.get(i);
            ObjectNode n = list.addObject();
            n.put("name", t.spec().name());
            n.put("benchmark", t.module().name());
            n.put("config", t.spec().config().toString());
            n.put("folder", t.spec().name());
            n.put("target", t.config().target().type());
            n.put("failed", failures[i] != null);
            Path summary = dir.resolve(t.spec().name()).resolve("summary.json");
            if (Files.exists(summary)) {
                JsonNode s = JSON.readTree(summary.toFile());
                n.put("startMs", s.path("startMs").asLong());
                n.put("endMs", s.path("endMs").asLong());
                // The first phase starts after the shared gate; the run's startMs is before the sessions opened.
                long start = s.path("phases")
                        .path(0)
                        .path("startMs")
                        .asLong(s.path("startMs").asLong());
                n.put("firstPhaseStartMs", start);
                minStart = Math.min(minStart, start);
                maxStart = Math.max(maxStart, start);
            }
        }
        if (minStart <= maxStart) {
            root.put("startSpreadMs", maxStart - minStart);
        }
        JSON.writeValue(dir.resolve("tenants.json").toFile(), root);
    }

    @Override
    public void stop() {
        stopping.request();
    }
}
