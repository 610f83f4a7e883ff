package org.ivsbench.experiment;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.ExperimentWorkload;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * experiment/baselines = computed: each epoch's volume worked out by hand for a small ycsbivs config, and what
 * the baselines then load. The primary: 100 records of 4 fields of 25 bytes = 10,000 bytes in 400 values, 100
 * bytes a record; 30 extends per epoch of 10 bytes each.
 */
class BaselineVolumeTest {
    @TempDir
    Path tmp;

    private ExperimentSpec spec(String parameters, String experiment) throws Exception {
        BenchmarkConfig config = RunHarness.config(
                tmp,
                "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve("x.db")
                        + "</url><terminals>1</terminals><recordcount>100</recordcount><fieldcount>4</fieldcount>"
                        + "<fieldlength>25</fieldlength><extendfieldlength>10</extendfieldlength>" + parameters
                        + "<experiment><epochs>3</epochs><extend><count>30</count></extend><run><count>5</count></run>"
                        + experiment + "</experiment></parameters>");
        return ExperimentSpec.parse(config, RunHarness.module());
    }

    private static final String COMPUTED =
            "<modes>average-baseline,spread-baseline</modes><baselines>computed</baselines>";

    @Test
    void eachEpochAddsItsExtendsToTheLoadedVolume() throws Exception {
        ExperimentSpec spec = spec("", COMPUTED);
        assertEquals(ExperimentSpec.BaselineVolumes.COMPUTED, spec.baselineVolumes());
        ValueSizeStats loaded = ValueSizeStats.uniform(100, 4, 25);
        ExperimentWorkload w = spec.workload();
        // 10,000 + 1 x 30 x 10 = 10,300; + 2 x 300 = 10,600; + 3 x 300 = 10,900.
        assertEquals(10_300, BaselineVolume.computed(loaded, w, 1).totalBytes());
        assertEquals(10_600, BaselineVolume.computed(loaded, w, 2).totalBytes());
        BaselineVolume third = BaselineVolume.computed(loaded, w, 3);
        assertEquals(10_900, third.totalBytes());
        assertEquals(100, third.records(), "extends add bytes, not records");
        assertEquals(27.25, third.averageValueBytes(), 1e-9); // 10,900 / 400 values

        // What the baselines load at that volume: 100 records of 27-byte values; 109 records of 100 bytes.
        BenchmarkConfig run = w.runPhase(RunHarness.config(tmp, minimalXml()), 0, 1);
        ExperimentWorkload.BaselineData average = w.averageBaseline(run, third.records(), third.averageValueBytes());
        assertEquals(100, average.records());
        assertEquals(27, average.valueBytes());
        assertEquals(
                109, w.spreadBaseline(run, third.records(), third.totalBytes()).records());
    }

    @Test
    void writeAllFieldsGrowsEveryFieldPerExtend() throws Exception {
        ExperimentSpec spec = spec("<writeallfields>true</writeallfields>", COMPUTED);
        ValueSizeStats loaded = ValueSizeStats.uniform(100, 4, 25);
        // 10,000 + 3 epochs x 30 extends x 4 fields x 10 bytes = 13,600.
        assertEquals(13_600, BaselineVolume.computed(loaded, spec.workload(), 3).totalBytes());
    }

    @Test
    void aVariableExtendLengthCountsItsMean() throws Exception {
        // uniform over 5..15 bytes: mean 10, so about the constant case's 10,900 (the mean is estimated).
        ExperimentSpec spec =
                spec("<extendlengthdistribution>uniform(min=5,max=15)</extendlengthdistribution>", COMPUTED);
        long bytes = BaselineVolume.computed(ValueSizeStats.uniform(100, 4, 25), spec.workload(), 3)
                .totalBytes();
        assertTrue(Math.abs(bytes - 10_900) <= 9, "about 10,900: " + bytes); // 90 extends, 0.1 byte each
    }

    @Test
    void computedIsForBaselinesOnly() throws Exception {
        assertEquals(ExperimentSpec.BaselineVolumes.MEASURED, spec("", "").baselineVolumes());
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> spec("", "<modes>main,spread-baseline</modes><baselines>computed</baselines>"));
        assertTrue(e.getMessage().startsWith("experiment/baselines"), e.getMessage());
        assertTrue(e.getMessage().contains("'computed'") && e.getMessage().contains("main"), e.getMessage());
        ConfigException bad = assertThrows(
                ConfigException.class, () -> spec("", "<modes>average-baseline</modes><baselines>guessed</baselines>"));
        assertTrue(bad.getMessage().contains("'guessed'"), bad.getMessage());
    }

    private String minimalXml() {
        return "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + tmp.resolve("x.db")
                + "</url><terminals>1</terminals><recordcount>100</recordcount><fieldcount>4</fieldcount>"
                + "<fieldlength>25</fieldlength><extendfieldlength>10</extendfieldlength>"
                + "<experiment><epochs>1</epochs></experiment></parameters>";
    }
}
