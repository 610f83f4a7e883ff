package org.ivsbench.config;

import java.util.List;

/** {@code metrics}: the live metrics endpoint ({@code <listen>HOST:PORT</listen>}); --metrics-listen overrides it. */
final class MetricsSection {
    private static final List<String> ELEMENTS = List.of("listen");

    private MetricsSection() {}

    /** The listen address as written (checked as host:port), or null without the section or its listen. */
    static String parse(Element root) throws ConfigException {
        Element section = root.single("metrics");
        if (section == null) {
            return null;
        }
        section.requireSection(ELEMENTS);
        String listen = section.leaf("listen");
        if (listen != null) {
            MonitorSection.checkHostPort(section.childPath("listen"), listen.strip());
            return listen.strip();
        }
        return null;
    }
}
