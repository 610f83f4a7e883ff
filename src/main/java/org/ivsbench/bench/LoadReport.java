package org.ivsbench.bench;

/** What a load did: records and value bytes written, and how long it took. */
public record LoadReport(long records, long bytes, long elapsedMillis) {}
