package org.ivsbench.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code experiment}: flattened, not interpreted. The experiment runner owns its meaning and validates it;
 * the loader only guarantees a plain, ordered map of leaf paths ("extend/count", "modes/mode[2]") to values.
 */
final class ExperimentSection {
    private ExperimentSection() {}

    static Map<String, String> parse(Element root) throws ConfigException {
        Element section = root.single("experiment");
        if (section == null) {
            return null;
        }
        Map<String, String> flat = new LinkedHashMap<>();
        section.requireContainer();
        flatten(section, "", flat);
        return flat;
    }

    private static void flatten(Element element, String prefix, Map<String, String> out) throws ConfigException {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Element child : element.children()) {
            counts.merge(child.name(), 1, Integer::sum);
        }
        for (String name : counts.keySet()) {
            List<Element> group = counts.get(name) > 1 ? element.repeated(name) : List.of(element.single(name));
            for (int i = 0; i < group.size(); i++) {
                Element child = group.get(i);
                String key = prefix + name + (group.size() > 1 ? "[" + (i + 1) + "]" : "");
                if (child.hasChildren()) {
                    child.requireContainer();
                    flatten(child, key + "/", out);
                } else {
                    out.put(key, child.text());
                }
            }
        }
    }
}
