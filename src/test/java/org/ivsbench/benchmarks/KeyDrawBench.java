package org.ivsbench.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import org.ivsbench.random.CounterGenerator;
import org.ivsbench.random.DistributionSpec;
import org.ivsbench.random.KeyDistributions;
import org.ivsbench.random.LongGenerator;
import org.ivsbench.random.ScrambledZipfianGenerator;
import org.ivsbench.random.UniformLongGenerator;
import org.ivsbench.random.ZetaCache;

/**
 * What choosing one key costs, per key-distribution expression, in ns per draw on one thread: the chooser a
 * terminal gets from {@link KeyDistributions#generator} against the generator the terminal constructed
 * directly before distributions became expressions ({@code reference: ...} rows), in the same JVM and in
 * alternating rounds so both see the same machine. The drawn keys are summed into a sink so the JIT cannot
 * drop the work.
 *
 * <pre>KeyDrawBench [rounds=3] [drawsPerRound=5000000] [recordCount=1000000]</pre>
 */
public final class KeyDrawBench {
    private static final List<String> EXPRESSIONS = List.of(
            "uniform",
            "zipfian",
            "zipfian(theta=0.8)",
            "zipfian-unscrambled",
            "latest",
            "hotspot(set=0.2,ops=0.8)",
            "exponential(mean=0.1)",
            "normal(mean=0.5,stddev=0.1)",
            "beta(alpha=2,beta=5)",
            "lognormal(mu=-1,sigma=0.5)",
            "pareto(scale=0.01,shape=1.5)",
            "weibull(shape=1.5,scale=0.3)");

    private KeyDrawBench() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        long draws = args.length > 1 ? Long.parseLong(args[1]) : 5_000_000L;
        long records = args.length > 2 ? Long.parseLong(args[2]) : 1_000_000L;
        ZetaCache zetas = new ZetaCache();
        List<String> names = new ArrayList<>();
        List<LongGenerator> generators = new ArrayList<>();
        names.add("reference: new ScrambledZipfianGenerator");
        generators.add(new ScrambledZipfianGenerator(0, records - 1));
        names.add("reference: new UniformLongGenerator");
        generators.add(new UniformLongGenerator(0, records - 1));
        List<String> expressions = new ArrayList<>(EXPRESSIONS);
        // Poisson draws key numbers directly: its mean must lie inside the key space.
        expressions.add("poisson(mean=" + Math.max(1, Math.min(5000, records / 2)) + ")");
        for (String expression : expressions) {
            DistributionSpec spec = KeyDistributions.parse(expression);
            names.add(expression);
            generators.add(KeyDistributions.generator(spec, records, new CounterGenerator(records), zetas));
        }
        System.out.println("# cores=" + Runtime.getRuntime().availableProcessors() + " java="
                + System.getProperty("java.version") + " records=" + records + " draws/round=" + draws);
        System.out.printf(Locale.ROOT, "%-6s %-42s %10s%n", "round", "chooser", "ns/draw");
        long sink = 0;
        for (int i = 0; i < generators.size(); i++) {
            sink += time(generators.get(i), draws / 10, 1)[1]; // warm-up, not printed
        }
        for (int r = 1; r <= rounds; r++) {
            // Alternate the order so no chooser always runs first (or last) in a round.
            for (int k = 0; k < generators.size(); k++) {
                int i = r % 2 == 1 ? k : generators.size() - 1 - k;
                long[] t = time(generators.get(i), draws, r);
                sink += t[1];
                System.out.printf(Locale.ROOT, "%-6d %-42s %10.1f%n", r, names.get(i), (double) t[0] / draws);
            }
        }
        System.out.println("# sink " + sink);
    }

    private static long[] time(LongGenerator generator, long draws, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long sum = 0;
        long start = System.nanoTime();
        for (long n = 0; n < draws; n++) {
            sum += generator.next(random);
        }
        return new long[] {System.nanoTime() - start, sum};
    }
}
