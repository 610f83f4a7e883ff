package org.ivsbench.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code transactiontypes/transactiontype}: the mix's types, in the order the weights refer to them. Optional
 * (empty) when the config has an experiment.
 */
final class TransactionTypesSection {
    private static final List<String> ELEMENTS = List.of("name", "preExecutionWait", "postExecutionWait");

    private TransactionTypesSection() {}

    static List<TransactionTypeConfig> parse(
            Element root, String benchmarkName, List<String> supported, boolean optional) throws ConfigException {
        Element section = root.single("transactiontypes");
        if (section == null && optional) {
            return List.of();
        }
        if (section == null) {
            throw new ConfigException(
                    "transactiontypes",
                    "is required: list at least one transactiontype of " + benchmarkName + " ("
                            + String.join(", ", supported) + ")");
        }
        section.requireSection(List.of("transactiontype"));
        List<Element> elements = section.repeated("transactiontype");
        if (elements.isEmpty()) {
            throw new ConfigException(
                    "transactiontypes",
                    "has no transactiontype; list at least one of " + benchmarkName + " ("
                            + String.join(", ", supported) + ")");
        }
        List<TransactionTypeConfig> types = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        for (Element element : elements) {
            element.requireSection(ELEMENTS);
            String name = element.leaf("name");
            String namePath = element.childPath("name");
            if (name == null || name.isBlank()) {
                throw new ConfigException(namePath, name == null ? "is required" : "is empty");
            }
            if (!supported.contains(name)) {
                throw new ConfigException(
                        namePath,
                        "'" + name + "' is not a transaction type of " + benchmarkName
                                + Leaves.suggestion(name, supported) + " (valid: " + String.join(", ", supported)
                                + ")");
            }
            String earlier = seen.putIfAbsent(name, element.path());
            if (earlier != null) {
                throw new ConfigException(namePath, "'" + name + "' is already listed at " + earlier);
            }
            long pre = element.longAtLeast("preExecutionWait", 0, 0);
            long post = element.longAtLeast("postExecutionWait", 0, 0);
            types.add(new TransactionTypeConfig(name, pre, post));
        }
        return types;
    }
}
