/**
 * The server-side resource monitor: monitor.csv (docs/results-format.md) on the client's clock.
 *
 * <ul>
 * <li>{@link ResourceMonitor} runs for a run (or an experiment's phase folder): start it
 * before the first phase, close it after the last; it ticks on wall-clock multiples of the interval so its rows
 * share boundaries with samples.csv.</li>
 * <li>{@link ProcSampler} reads /proc: {@code os.cpu.*} shares of all cpu time
 * (sys includes irq and softirq, usr includes nice; the five add to 100); {@code os.mem.cached_bytes} is
 * Buffers + Cached + SReclaimable (free(1)'s buff/cache) and used = MemTotal - MemFree - cached; disks are
 * whole devices (sys/block, else by name), never loop/ram/zram or partitions; dm-* and md* are listed but kept
 * out of the totals because they repeat the I/O of the disks below them; {@code io_ms_ps} is the busy time in
 * ms per second (divide by 10 for %util).</li>
 * <li>{@link DbCounterSampler} with {@link CounterSelection}: counters
 * as deltas, gauges as values; by default the subset the database's kind names
 * ({@link TargetKind#defaultCounters()}), or all. Databases are reached only through
 * {@link StatusCounters} and {@link TargetKind}, never a binding.</li>
 * <li>{@link MonitorAgent} / {@link AgentClient}: remote hosts, with an
 * NTP-style offset estimate (minimum round trip of the last 16 polls).</li>
 * <li>{@link DstatImporter}: dstat / dool CSV into the same columns.</li>
 * <li>Prometheus exporters instead of /proc and the target ({@code <monitor><exporters>},
 * docs/monitor-exporters.md): {@link ExporterHostSampler} (node_exporter, process-exporter),
 * {@link ExporterCounters} (mysqld_exporter, postgres_exporter), read by {@link ExpositionParser}; rows marked
 * {@code source=exporter}.</li>
 * <li>{@link AgentTls}: HTTPS between {@link AgentClient} and {@link MonitorAgent}.</li>
 * <li>{@link MonitorOverhead}: what a sample costs.</li>
 * </ul>
 *
 * Columns: a metric that first appears mid-run (a disk or interface that comes up, database counters that
 * become readable only after monitoring started) widens monitor.csv ({@link MonitorCsvWriter}
 * rewrites it with the new column at the end and empty cells before), so nothing is dropped; a counter's first
 * readable interval is empty, being only its baseline.
 *
 * <p>Known limits: with an agent, the agent's interval that is still running at close is not fetched (at most
 * one interval at the end). Without an agent the samples are of the client's host whatever host the database
 * runs on: {@link RunMonitor} warns when the database URL is not local and marks those rows
 * {@code source=client}.
 */
package org.ivsbench.monitor;

import org.ivsbench.db.StatusCounters;
import org.ivsbench.db.TargetKind;
