package org.ivsbench.bench;

import java.util.Map;
import java.util.OptionalLong;

import org.ivsbench.config.BenchmarkConfig;

/**
 * A benchmark's validated part of an experiment: what the extend phase (on the primary, every epoch) and the
 * run phase (every mode) do, where the data lives, and which data sets the two baselines load.
 */
public interface ExperimentWorkload {

    /** The data set a baseline mode runs on: the config whose load builds it, every value of one size. */
    record BaselineData(BenchmarkConfig config, long records, int valuesPerRecord, long valueBytes) {}

    /** experiment.json's description of these settings (plain values, a stable order). */
    Map<String, Object> describe();

    /** The table that holds the benchmark's data (value sizes, clean's snapshot, the fresh-instance check). */
    String dataTable();

    /** The config of an epoch's extend phase: {@code base} with its own transaction types and one phase. */
    BenchmarkConfig extendPhase(BenchmarkConfig base, long seed);

    /** The config of a mode's run phase, measured after {@code warmupSeconds} of warmup. */
    BenchmarkConfig runPhase(BenchmarkConfig base, long warmupSeconds, long seed);

    /**
     * The field length from which an extend is skipped (the value is at its cap): records with such a field are
     * counted per epoch. 0 when the benchmark has no cap.
     */
    default long fieldCapAt() {
        return 0;
    }

    /**
     * The bytes of values the extend phases of epochs 1 to {@code epochs} add to the primary when every extend
     * grows its value (none skipped at the cap): what a baselines-only experiment with computed volumes
     * ({@code experiment/baselines} = computed) adds to the loaded volume instead of running those phases. Empty
     * when the benchmark cannot tell, which makes computed volumes a config error.
     */
    default OptionalLong extendedBytes(int epochs) {
        return OptionalLong.empty();
    }

    /** True when the run phase writes, so main's run phase changes the primary. */
    boolean runWrites();

    /** average-baseline: {@code records} records (the primary's count), every value of the average size. */
    BaselineData averageBaseline(BenchmarkConfig runConfig, long records, double averageValueBytes);

    /** spread-baseline: records as loaded initially, as many as hold the primary's {@code totalBytes}. */
    BaselineData spreadBaseline(BenchmarkConfig runConfig, long records, long totalBytes);
}
