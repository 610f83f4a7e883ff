package org.ivsbench.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongFunction;

import org.ivsbench.random.KeyDistributions;
import org.ivsbench.random.KeyNames;
import org.ivsbench.random.KeyShape;
import org.ivsbench.random.KeyShape.Segment;
import org.ivsbench.random.LengthDistribution;
import org.ivsbench.random.ZetaCache;

/**
 * What naming one key costs, in ns per key on one thread: YCSB's {@link KeyNames} (the reference: what every
 * operation paid before key shapes), the default shape every operation now goes through, and the shapes a
 * {@code <keys>} section makes, in the same JVM and in alternating rounds. Key lengths are summed into a sink
 * so the JIT cannot drop the work.
 *
 * <pre>KeyNameBench [rounds=3] [namesPerRound=2000000]</pre>
 */
public final class KeyNameBench {
    private KeyNameBench() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        long count = args.length > 1 ? Long.parseLong(args[1]) : 2_000_000L;
        List<Segment> segments = List.of(new Segment("tenant", 10), new Segment("user", 100));
        LengthDistribution lengths = LengthDistribution.parse("uniform(min=32, max=64)", 1, 1, 255, 255);
        List<String> names = new ArrayList<>();
        List<LongFunction<String>> namers = new ArrayList<>();
        names.add("reference: KeyNames.key (hashed)");
        namers.add(n -> KeyNames.key(n, false));
        names.add("default shape (hashed)");
        namers.add(KeyShape.plain(false)::key);
        names.add("default shape (ordered)");
        namers.add(KeyShape.plain(true)::key);
        names.add("ordered, zero-padded");
        namers.add(KeyShape.shaped(true, List.of(), null, null, 0)::key);
        names.add("tenant:10,user:100 uniform");
        namers.add(KeyShape.shaped(
                false,
                segments,
                KeyDistributions.generator(KeyDistributions.parse("uniform"), 1000, null, null),
                null,
                0)::key);
        names.add("tenant:10,user:100 zipfian-unscr., length 32-64");
        namers.add(KeyShape.shaped(
                true,
                segments,
                KeyDistributions.generator(
                        KeyDistributions.parse("zipfian-unscrambled(theta=0.9)"), 1000, null, new ZetaCache()),
                lengths,
                0)::key);
        System.out.println("# cores=" + Runtime.getRuntime().availableProcessors() + " java="
                + System.getProperty("java.version") + " names/round=" + count);
        System.out.printf(Locale.ROOT, "%-6s %-50s %10s%n", "round", "namer", "ns/key");
        long sink = 0;
        for (LongFunction<String> namer : namers) {
            sink += time(namer, count / 10)[1]; // warm-up, not printed
        }
        for (int r = 1; r <= rounds; r++) {
            for (int k = 0; k < namers.size(); k++) {
                int i = r % 2 == 1 ? k : namers.size() - 1 - k;
                long[] t = time(namers.get(i), count);
                sink += t[1];
                System.out.printf(Locale.ROOT, "%-6d %-50s %10.1f%n", r, names.get(i), (double) t[0] / count);
            }
        }
        System.out.println("# sink " + sink);
    }

    private static long[] time(LongFunction<String> namer, long count) {
        long sum = 0;
        long start = System.nanoTime();
        for (long n = 0; n < count; n++) {
            sum += namer.apply(n).length();
        }
        return new long[] {System.nanoTime() - start, sum};
    }
}
