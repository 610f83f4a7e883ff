package org.ivsbench.bench;

import java.util.Collections;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/**
 * The benchmarks the -b option can name: every {@link BenchmarkModule} registered with {@link ServiceLoader}
 * (a line in {@code META-INF/services/org.ivsbench.bench.BenchmarkModule}), as database kinds are. Each run gets
 * a fresh module instance: a module holds its run's shared state (keys, counters).
 */
public final class BenchmarkRegistry {
    private static final Set<String> NAMES = load();

    private BenchmarkRegistry() {}

    private static ServiceLoader<BenchmarkModule> modules() {
        return ServiceLoader.load(BenchmarkModule.class, BenchmarkRegistry.class.getClassLoader());
    }

    private static Set<String> load() {
        Set<String> names = new TreeSet<>();
        for (BenchmarkModule module : modules()) {
            if (!names.add(module.name())) {
                throw new IllegalStateException("benchmark " + module.name() + " is registered twice (again by "
                        + module.getClass().getName() + ")");
            }
        }
        return Collections.unmodifiableSet(names);
    }

    /** A new instance of the benchmark called {@code name}; empty when none is registered by that name. */
    public static Optional<BenchmarkModule> create(String name) {
        if (!NAMES.contains(name)) {
            return Optional.empty();
        }
        // A new loader instantiates its providers anew: this run's module shares no state with another's.
        for (BenchmarkModule module : modules()) {
            if (module.name().equals(name)) {
                return Optional.of(module);
            }
        }
        return Optional.empty();
    }

    /** The registered names, sorted. */
    public static Set<String> names() {
        return NAMES;
    }
}
