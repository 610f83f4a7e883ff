package org.ivsbench.bench;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.ivsbench.bench.ycsb.YcsbModule;
import org.ivsbench.bench.ycsbivs.YcsbIvsModule;

/** The benchmarks the -b option can name. Each run gets a fresh module instance. */
public final class BenchmarkRegistry {
    private static final Map<String, Supplier<BenchmarkModule>> MODULES = new TreeMap<>(Map.of(
            "ycsb", YcsbModule::new,
            "ycsbivs", YcsbIvsModule::new));

    private BenchmarkRegistry() {}

    public static Optional<BenchmarkModule> create(String name) {
        Supplier<BenchmarkModule> supplier = MODULES.get(name);
        return supplier == null ? Optional.empty() : Optional.of(supplier.get());
    }

    public static Set<String> names() {
        return MODULES.keySet();
    }
}
