package org.ivsbench.bench;

import org.ivsbench.bench.kv.KvModule;

/**
 * A deliberate violation for LayeringTest: a registry that names a benchmark class (as BenchmarkRegistry did
 * before benchmarks registered through ServiceLoader). Never used.
 */
public final class NamingRegistry {
    private NamingRegistry() {}

    public static BenchmarkModule kv() {
        return new KvModule();
    }
}
