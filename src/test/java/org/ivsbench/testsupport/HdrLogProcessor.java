package org.ivsbench.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogProcessor;

/**
 * HdrHistogram's own log processor ({@code org.HdrHistogram.HistogramLogProcessor}, from the HdrHistogram jar on
 * the class path) run as its users run it: a separate java process on one hlog file, with or without {@code -tag}.
 * It calls System.exit on a bad log, hence the process.
 */
public final class HdrLogProcessor {
    private static final Pattern TOTAL = Pattern.compile("Total count\\s*=\\s*(\\d+)");

    private HdrLogProcessor() {}

    /**
     * The "Total count" the processor prints for {@code log}: the operations of the untagged intervals when
     * {@code tag} is null, else those of the intervals tagged {@code tag}.
     */
    public static long totalCount(Path log, String tag) throws Exception {
        String out = run(log, tag);
        Matcher m = TOTAL.matcher(out);
        if (!m.find()) {
            throw new AssertionError("no 'Total count' in HistogramLogProcessor's output:\n" + out);
        }
        return Long.parseLong(m.group(1));
    }

    /** The processor's standard output (percentile distribution) for {@code log}, {@code -tag tag} when not null. */
    public static String run(Path log, String tag) throws Exception {
        Path jar = Path.of(Histogram.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                jar.toString(),
                HistogramLogProcessor.class.getName(),
                "-i",
                log.toString()));
        if (tag != null) {
            cmd.add("-tag");
            cmd.add(tag);
        }
        Path stdout = Files.createTempFile("hlogproc", ".out");
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectOutput(stdout.toFile())
                    .redirectErrorStream(true)
                    .start();
            p.getOutputStream().close();
            int code = p.waitFor();
            String out = Files.readString(stdout);
            if (code != 0) {
                throw new AssertionError("HistogramLogProcessor exited " + code + ":\n" + out);
            }
            return out;
        } finally {
            Files.deleteIfExists(stdout);
        }
    }
}
