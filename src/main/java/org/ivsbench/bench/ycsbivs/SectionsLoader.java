package org.ivsbench.bench.ycsbivs;

import java.util.List;
import java.util.SplittableRandom;

import org.ivsbench.bench.ChunkedLoader;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.db.Record;

/**
 * Loads every section's records, the sections one after another in one record order: load position {@code g}
 * is key number {@code g - offset} of the section whose records hold it, named by that section
 * ({@link Sections.Section#key}); values as {@link YcsbIvsLoader}'s, from the stream "loader" of each chunk.
 */
final class SectionsLoader extends ChunkedLoader {
    private final YcsbIvsParameters parameters;
    private final List<String> fields;
    private final List<Sections.Section> sections;

    SectionsLoader(BenchmarkConfig config, YcsbIvsParameters parameters) {
        super(config, parameters.table(), parameters.sections().records(), "loader");
        this.parameters = parameters;
        this.fields = parameters.fieldNames();
        this.sections = parameters.sections().list();
    }

    @Override
    protected Record record(long position, SplittableRandom random) {
        Sections.Section holder = sections.get(0);
        for (Sections.Section s : sections) {
            if (s.records() > 0 && position >= s.offset()) {
                holder = s;
            }
        }
        return YcsbIvsLoader.record(parameters, fields, holder.key(position - holder.offset()), random);
    }
}
