package org.ivsbench.bench.ycsbivs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;

import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.stats.PhaseSummary;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Section workloads run through the real engine on SQLite or MariaDB (InnoDB), for the sections integration tests:
 * every call the terminal sent is recorded and the table is read back at the end. Count phases, one terminal: exact.
 */
final class SectionRuns {
    static final String TABLE = "sections_live";

    private final Path tmp;

    SectionRuns(Path tmp) {
        this.tmp = tmp;
    }

    /** A run: its module, phases, every call the terminal sent, and the table's keys (with each record's bytes). */
    record Run(
            YcsbIvsModule module,
            List<PhaseSummary> phases,
            List<String> calls,
            TreeSet<String> table,
            TreeMap<String, Integer> valueBytes) {}

    Run run(String xml) throws Exception {
        BenchmarkConfig config = RunHarness.config(tmp, xml);
        YcsbIvsModule module = (YcsbIvsModule) RunHarness.module();
        List<String> calls = new ArrayList<>();
        try (Target target = Targets.open(config.target())) {
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            Target recorded = Fixtures.recording(target, calls::add);
            List<PhaseSummary> phases = RunHarness.execute(module, config, recorded, tmp);
            TreeMap<String, Integer> valueBytes = new TreeMap<>();
            target.forEachRecord(
                    TABLE,
                    rec -> valueBytes.put(
                            rec.key(),
                            rec.fields().values().stream()
                                    .mapToInt(String::length)
                                    .sum()));
            module.clear(config, target);
            return new Run(module, phases, calls, new TreeSet<>(valueBytes.keySet()), valueBytes);
        }
    }

    static List<String> targets() {
        return List.of("sqlite", "innodb");
    }

    /** The connection elements of a target, and the test's own table. */
    String connection(String target) {
        String table = "<table>" + TABLE + "</table>";
        return switch (target) {
            case "sqlite" -> "<type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve("db.sqlite") + "</url>" + table;
            case "innodb" -> RunHarness.mariadbConnection() + table;
            default -> throw new IllegalArgumentException(target);
        };
    }

    /** A shipped workload of config/workloads with the target's connection instead of its SQLite one. */
    String shipped(String name, String target) throws Exception {
        String xml = Files.readString(Path.of("config/workloads").resolve(name));
        return xml.replaceFirst(
                "<type>SQLITE</type>\\s*<url>[^<]*</url>", Matcher.quoteReplacement(connection(target)));
    }

    /** A section's loaded keys as docs/sections.md names ordered ones: name/, then the number in 10 digits. */
    static TreeSet<String> loaded(String section, int records) {
        TreeSet<String> keys = new TreeSet<>();
        for (int n = 0; n < records; n++) {
            keys.add(String.format("%s/%010d", section, n));
        }
        return keys;
    }

    /**
     * Each phase has exactly its count of operations, every one as expected (non-empty reads found their record,
     * empty reads found none, ranges and inserts succeeded), and each type's share of it is the spec's within a
     * five-standard-deviation binomial bound (exactly 0 where the spec has none).
     */
    static void mixAsSpecified(Run r, List<Long> sizes, List<Map<String, Double>> shares) {
        assertEquals(sizes, r.phases().stream().map(p -> p.counts().total()).toList());
        for (int i = 0; i < sizes.size(); i++) {
            PhaseSummary p = r.phases().get(i);
            long n = p.counts().total();
            assertEquals(n, p.counts().ok(), p.name() + ": every operation as expected: " + p.counts());
            for (Map.Entry<String, Double> e : shares.get(i).entrySet()) {
                var type = p.transactions().get(e.getKey());
                long done = type == null ? 0 : type.counts().total();
                double share = e.getValue();
                assertEquals(
                        share,
                        (double) done / n,
                        5 * Math.sqrt(share * (1 - share) / n),
                        p.name() + " " + e.getKey() + ": " + done + " of " + n);
            }
        }
    }
}
