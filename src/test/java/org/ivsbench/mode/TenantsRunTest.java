package org.ivsbench.mode;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.BenchmarkModule;
import org.ivsbench.bench.ForwardingModule;
import org.ivsbench.bench.LoadProgress;
import org.ivsbench.bench.Terminal;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;
import org.ivsbench.db.Targets;
import org.ivsbench.op.OpResult;
import org.ivsbench.run.RunLifecycle;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One stop for all tenants: the first tenant that fails ends the others, and every tenant's results are written. */
class TenantsRunTest {
    @TempDir
    Path tmp;

    /** A ycsbivs module whose terminals die (an Error, as an out-of-memory would) at their 20th operation. */
    private static final class Dying extends ForwardingModule {
        Dying(BenchmarkModule module) {
            super(module);
        }

        @Override
        public Terminal newTerminal(BenchmarkConfig config, Target target, int terminalId) throws TargetException {
            Terminal inner = module.newTerminal(config, target, terminalId);
            AtomicInteger ops = new AtomicInteger();
            return new Terminal() {
                @Override
                public void startPhase(PhaseConfig phase, SplittableRandom random) {
                    inner.startPhase(phase, random);
                }

                @Override
                public OpResult execute(int type) {
                    if (ops.incrementAndGet() == 20) {
                        throw new AssertionError("this terminal dies here");
                    }
                    return inner.execute(type);
                }

                @Override
                public void close() {
                    inner.close();
                }
            };
        }
    }

    private TenantsRun.Tenant tenant(String name, BenchmarkModule module, String works) throws Exception {
        String xml = "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve(name + ".db") + "</url>"
                + "<recordcount>50</recordcount><transactiontypes><transactiontype><name>ReadRecord</name>"
                + "</transactiontype></transactiontypes><works>" + works + "</works>"
                + "<monitor><enabled>false</enabled></monitor></parameters>";
        Path file = tmp.resolve(name + ".xml");
        Files.writeString(file, xml);
        BenchmarkConfig config = RunHarness.config(tmp, xml);
        Target target = Targets.open(config.target());
        module.create(config, target);
        module.load(config, target, LoadProgress.NONE);
        return new TenantsRun.Tenant(new TenantSpec(name, "ycsbivs", file), module, config, target);
    }

    @Test
    void theFirstTenantThatFailsStopsTheOthersAndEveryoneIsWritten() throws Exception {
        BenchmarkModule ycsbivs = RunHarness.module();
        // The survivor's phase would last ten minutes: it ends early only because the dying tenant stops it.
        TenantsRun.Tenant survivor =
                tenant("survivor", ycsbivs, "<work><time>600</time><rate>50</rate><weights>100</weights></work>");
        TenantsRun.Tenant dying = tenant(
                "dying", new Dying(ycsbivs), "<work><time>600</time><rate>50</rate><weights>100</weights></work>");
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int code;
        try {
            code = new TenantsRun(List.of(survivor, dying), new PrintStream(out, true, StandardCharsets.UTF_8))
                    .execute(tmp.resolve("results"), 1, List.of("tenants"));
        } finally {
            survivor.target().close();
            dying.target().close();
        }

        assertEquals(RunLifecycle.FAILED, code, out.toString(StandardCharsets.UTF_8));
        Path run;
        try (var dirs = Files.list(tmp.resolve("results"))) {
            run = dirs.findFirst().orElseThrow();
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode survived = json.readTree(run.resolve("survivor/summary.json").toFile());
        assertTrue(survived.path("interrupted").asBoolean(), "the survivor was stopped: " + survived);
        assertTrue(survived.path("phases").get(0).path("operations").asLong() > 0);
        JsonNode index = json.readTree(run.resolve("tenants.json").toFile());
        assertFalse(index.path("tenants").get(0).path("failed").asBoolean());
        assertTrue(index.path("tenants").get(1).path("failed").asBoolean());
        assertTrue(Files.isRegularFile(run.resolve("dying/summary.json")));
        assertTrue(Files.readAllLines(run.resolve("tenants.csv")).size() > 1);
    }
}
