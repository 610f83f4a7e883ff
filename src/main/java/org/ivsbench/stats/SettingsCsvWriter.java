package org.ivsbench.stats;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.StringJoiner;

import org.ivsbench.config.PhaseConfig;
import org.ivsbench.config.RampConfig;
import org.ivsbench.config.RateRamp;

/**
 * settings.csv, written beside samples.csv when a phase of the run ramps ({@code <ramp>}): one row per window x
 * phase (the same keys as samples.csv's rows) with the settings configured for the window's measured part, so a
 * gradual shift can be read next to what it did. {@code rate}: the configured arrivals in the measured part
 * divided by its length (the integral of the ramped rate, comparable with samples.csv's throughput); empty when
 * the phase has no open rate or the window no measured part. {@code ramp_fraction} and {@code weights}: the
 * ramp's fraction (0 = the phase's own settings, 1 = the targets) and the mix at the middle of the measured part
 * (at its start when there is none); a ramped benchmark parameter (the key distribution) is at the same fraction.
 */
final class SettingsCsvWriter implements AutoCloseable {
    static final String FILE = "settings.csv";
    static final String HEADER = "time_ms,window_ms,phase,measured_ms,ramp_fraction,rate,weights";

    private final BufferedWriter out;
    private final List<PhaseConfig> phases;

    private SettingsCsvWriter(Path file, List<PhaseConfig> phases) throws IOException {
        this.phases = phases;
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        out.write(HEADER);
        out.newLine();
        out.flush();
    }

    /** The writer for a run, or null when none of its phases ramps (then there is no settings.csv). */
    static SettingsCsvWriter open(Path dir, List<PhaseConfig> phases) throws IOException {
        boolean ramps = phases.stream().anyMatch(p -> p.ramp() != null);
        return ramps ? new SettingsCsvWriter(dir.resolve(FILE), List.copyOf(phases)) : null;
    }

    synchronized void write(Window w, long measuredStartMs) throws IOException {
        PhaseConfig phase = phaseOf(w.phase());
        if (phase == null) {
            return;
        }
        out.write(row(phase, w.startMs(), w.windowMs(), w.measuredMs(), measuredStartMs));
        out.newLine();
        out.flush();
    }

    /** One row; the measured part of the window begins at the later of its start and the phase's measured start. */
    static String row(PhaseConfig phase, long startMs, long windowMs, long measuredMs, long measuredStartMs) {
        double from = Math.max(0, startMs - measuredStartMs) / 1000.0;
        double to = from + measuredMs / 1000.0;
        RampConfig ramp = phase.ramp();
        double fraction = ramp == null ? 0 : ramp.fraction((from + to) / 2, phase.timeSeconds());
        String rate = "";
        if (phase.rate().isOpen() && measuredMs > 0) {
            double r0 = phase.rate().opsPerSecond();
            double configured = r0;
            if (ramp != null && ramp.rampsRate()) {
                RateRamp rr = new RateRamp(r0, ramp.rate(), phase.timeSeconds(), ramp);
                configured = (rr.arrivalsUntil(to) - rr.arrivalsUntil(from)) / (to - from);
            }
            rate = SamplesCsvWriter.num(configured);
        }
        StringJoiner weights = new StringJoiner(";");
        for (int i = 0; i < phase.weights().size(); i++) {
            double w0 = phase.weights().get(i);
            double w = ramp != null && ramp.rampsWeights()
                    ? RampConfig.between(w0, ramp.weights().get(i), fraction)
                    : w0;
            weights.add(SamplesCsvWriter.num(w));
        }
        return startMs + "," + windowMs + "," + phase.index() + "," + measuredMs + "," + SamplesCsvWriter.num(fraction)
                + "," + rate + "," + weights;
    }

    private PhaseConfig phaseOf(int index) {
        for (PhaseConfig p : phases) {
            if (p.index() == index) {
                return p;
            }
        }
        return null;
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
