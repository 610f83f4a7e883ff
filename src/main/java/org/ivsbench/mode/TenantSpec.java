package org.ivsbench.mode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** One tenant of a {@code tenants} invocation, {@code NAME:BENCH:FILE}: its results subfolder, benchmark and config. */
public record TenantSpec(String name, String benchmark, Path config) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    /** The file is everything after the second colon, so a path may hold colons itself. */
    static TenantSpec parse(String text) throws UsageException {
        String[] parts = text.split(":", 3);
        if (parts.length < 3 || parts[1].isEmpty() || parts[2].isEmpty()) {
            throw new UsageException("tenant '" + text + "': expected NAME:BENCH:FILE (e.g. reads:ycsbivs:read.xml)");
        }
        if (!NAME.matcher(parts[0]).matches()) {
            throw new UsageException("tenant '" + text + "': name '" + parts[0] + "' must be 1 to 64 letters, digits,"
                    + " '_', '.' or '-' (it names the tenant's results folder)");
        }
        return new TenantSpec(parts[0], parts[1], Path.of(parts[2]));
    }

    public static List<TenantSpec> parseAll(List<String> texts) throws UsageException {
        List<TenantSpec> specs = new ArrayList<>();
        for (String t : texts) {
            TenantSpec s = parse(t);
            for (TenantSpec other : specs) {
                if (other.name().equalsIgnoreCase(s.name())) {
                    throw new UsageException("tenant '" + t + "': the name '" + s.name() + "' is given twice");
                }
            }
            specs.add(s);
        }
        if (specs.size() < 2) {
            throw new UsageException("tenants: give at least two tenants (one runs with the main command)");
        }
        return specs;
    }
}
