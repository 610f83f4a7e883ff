package org.ivsbench.presets;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Stream;

/** The shipped configs of one server kind, and how each is run and checked. */
final class ShippedConfigs {
    /** Every folder of shipped configs but config/tenants (run together by TenantsPresetTest). */
    static final String ROOT = "config";

    private ShippedConfigs() {}

    static Stream<String> ofTypes(String... types) throws IOException {
        return PresetRun.files(ROOT, Set.of(types)).filter(f -> !f.startsWith("config/tenants/"));
    }

    /** BenchBase's samples are for -b ycsb; every other shipped config says -b ycsbivs in its header. */
    static String benchmark(String file) {
        return Path.of(file).getFileName().toString().startsWith("sample_") ? "ycsb" : "ycsbivs";
    }

    /**
     * What a sections config loads shrunk: every {@code <section>}'s {@code <records>}, each capped as
     * {@code --shrink} caps them (docs/sections.md).
     */
    static long sectionRecords(String xml) {
        long sum = 0;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                        "<section>(.*?)</section>", java.util.regex.Pattern.DOTALL)
                .matcher(xml);
        while (m.find()) {
            java.util.regex.Matcher r = java.util.regex.Pattern.compile("<records>\\s*(\\d+)\\s*</records>")
                    .matcher(m.group(1));
            if (r.find()) {
                sum += Math.min(Long.parseLong(r.group(1)), PresetRun.RECORDS);
            }
        }
        return sum;
    }

    /** Runs {@code file} against {@code url} (null: as shipped) and checks its shrunk counts; one table row. */
    static void runAndCheck(String file, String server, String url, String password, Path tmp) throws Exception {
        PresetRun.Ran ran = null;
        String size = "?";
        try {
            ran = PresetRun.run(file, benchmark(file), url, password, tmp);
            PresetRun.checkShrunkRun(ran);
            String xml = Files.readString(Path.of(file));
            if (xml.contains("<experiment>")) {
                size = PresetRun.checkExperiment(ran);
            } else {
                long records = benchmark(file).equals("ycsb")
                        ? PresetRun.RECORDS
                        : PresetRun.withoutComments(xml).contains("<sections>")
                                ? sectionRecords(PresetRun.withoutComments(xml))
                                : PresetRun.capped(
                                        PresetRun.withoutComments(xml), null, "recordcount", 1000, PresetRun.RECORDS);
                size = PresetRun.checkPhases(ran, records);
            }
            if (url != null && PresetRun.withoutComments(xml).contains("<exporters>")) {
                size += "; " + PresetRun.checkExporterMonitor(ran);
            }
        } finally {
            String label = Files.readString(Path.of(file)).contains("<engine>RocksDB") ? "myrocks" : server;
            PresetRun.row(file, label, size, ran == null ? -1 : ran.code());
            if (url != null) {
                PresetRun.stopFreshInstance(file);
            }
        }
    }
}
