/**
 * Merging the result folders of the n shards of one run ({@code --shard i/n}) into one results folder the analyzer
 * reads like any other: histograms are added (never percentiles averaged), samples.csv windows aligned and summed,
 * counts and missed arrivals summed, monitor rows kept once per host; missing or incomplete shards are reported.
 * It reads and writes files only: no database, no engine.
 */
package org.ivsbench.merge;
