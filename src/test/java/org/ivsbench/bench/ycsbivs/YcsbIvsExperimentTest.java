package org.ivsbench.bench.ycsbivs;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.ExperimentWorkload;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.LeafView;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ycsbivs's experiment phases and baseline data sets, built from a config without works or transaction types. */
class YcsbIvsExperimentTest {
    @TempDir
    Path tmp;

    private BenchmarkConfig config() throws Exception {
        return config("");
    }

    private BenchmarkConfig config(String more) throws Exception {
        return RunHarness.config(
                tmp,
                "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve("x.db")
                        + "</url><terminals>2</terminals><recordcount>100</recordcount><fieldcount>4</fieldcount>"
                        + "<fieldlength>25</fieldlength><table>grow</table>" + more
                        + "<experiment><epochs>1</epochs></experiment></parameters>");
    }

    private YcsbIvsExperiment parse(BenchmarkConfig config, Map<String, String> extra) throws Exception {
        Map<String, String> section =
                new LinkedHashMap<>(Map.of("epochs", "1", "extend/count", "30", "run/count", "40"));
        section.putAll(extra);
        return (YcsbIvsExperiment) YcsbIvsExperiment.SUPPORT.parse(LeafView.of(section, "experiment"), config);
    }

    @Test
    void extendAndRunPhasesCarryTheirOwnTransactionTypes() throws Exception {
        BenchmarkConfig config = config();
        assertTrue(config.phases().isEmpty() && config.transactionTypes().isEmpty());
        YcsbIvsExperiment w =
                parse(config, Map.of("run/weights", "ReadRecord:50,UpdateRecord:50", "run/distribution", "zipfian"));
        BenchmarkConfig extend = w.extendPhase(config, 77);
        assertEquals(List.of("ReadRecord", "ExtendRecord", "UpdateRecord"), extend.transactionTypeNames());
        PhaseConfig e = extend.phases().get(0);
        assertEquals(List.of(0.0, 100.0, 0.0), e.weights());
        assertEquals(30, e.count());
        assertEquals(0, e.warmupSeconds());
        assertEquals(2, e.activeTerminals());
        assertEquals("zipfian", e.parameters().get("distribution"));
        assertEquals(77, extend.randomSeed());

        BenchmarkConfig run = w.runPhase(config, 3, 78);
        PhaseConfig r = run.phases().get(0);
        assertEquals(List.of(50.0, 0.0, 50.0), r.weights());
        assertEquals(40, r.count());
        assertEquals(3, r.warmupSeconds());
        assertEquals("zipfian", r.parameters().get("distribution"));
        assertTrue(w.runWrites(), "UpdateRecord writes");
        assertFalse(parse(config, Map.of()).runWrites(), "ReadRecord:100 reads only");
        assertEquals("grow", w.dataTable());
    }

    @Test
    void baselinesKeepTheVolumeOrTheRecordCount() throws Exception {
        BenchmarkConfig config = config();
        YcsbIvsExperiment w = parse(config, Map.of());
        BenchmarkConfig run = w.runPhase(config, 0, 1);
        // The primary: 100 records of 4 values averaging 62.4 bytes (24,960 bytes in all).
        ExperimentWorkload.BaselineData average = w.averageBaseline(run, 100, 62.4);
        assertEquals(100, average.records());
        assertEquals(4, average.valuesPerRecord());
        assertEquals(62, average.valueBytes());
        assertEquals("100", average.config().parameters().get("recordcount"));
        assertEquals("62", average.config().parameters().get("fieldlength"));
        assertEquals(run.phases(), average.config().phases());

        ExperimentWorkload.BaselineData spread = w.spreadBaseline(run, 100, 24_960);
        assertEquals(250, spread.records()); // 24,960 bytes in records of 4 x 25 bytes, rounded
        assertEquals(25, spread.valueBytes());
        assertEquals("250", spread.config().parameters().get("recordcount"));
        assertEquals("25", spread.config().parameters().get("fieldlength"));
        assertEquals(1, YcsbIvsExperiment.spreadRecords(10, 100, 5), "never fewer than one record");
        assertEquals(5, YcsbIvsExperiment.spreadRecords(1000, 0, 5), "no initial size: the primary's count");
    }

    @Test
    void baselinesWithALengthDistribution() throws Exception {
        // Initial values uniform over 10..40 bytes: 25 on average, 100 per record of 4.
        BenchmarkConfig config = config("<fieldlengthdistribution>uniform(min=10, max=40)</fieldlengthdistribution>");
        YcsbIvsExperiment w = parse(config, Map.of("extend/distribution", "normal(mean=0.5, stddev=0.05)"));
        BenchmarkConfig run = w.runPhase(config, 0, 1);
        assertEquals(
                "normal(mean=0.5, stddev=0.05)",
                w.extendPhase(config, 1).phases().get(0).parameters().get("distribution"));
        ExperimentWorkload.BaselineData average = w.averageBaseline(run, 100, 62.4);
        assertEquals(
                null, average.config().parameters().get("fieldlengthdistribution"), "every value at the average size");
        assertEquals(
                62.0, YcsbIvsParameters.from(average.config()).fieldLengths().mean());

        ExperimentWorkload.BaselineData spread = w.spreadBaseline(run, 100, 24_960);
        assertEquals(250, spread.records(), 2); // 24,960 bytes in records of about 4 x 25 bytes
        assertEquals(25, spread.valueBytes());
        assertEquals(
                "uniform(min=10, max=40)",
                spread.config().parameters().get("fieldlengthdistribution"),
                "records shaped as initially loaded");
    }
}
