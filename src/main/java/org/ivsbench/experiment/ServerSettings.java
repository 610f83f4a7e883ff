package org.ivsbench.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

import org.ivsbench.db.ServerInfo;
import org.ivsbench.db.Target;
import org.ivsbench.db.TargetException;

/**
 * The server settings that decide how fast a server runs ({@link ServerInfo#settings}: caches, log sizes,
 * flushing), of the primary's server and of a fresh instance, and where they differ: a fresh instance with a
 * smaller buffer pool or another flush setting measures the settings, not the data's history.
 */
final class ServerSettings {
    private ServerSettings() {}

    /** {@code target}'s settings; the error in their place when the server cannot tell. */
    static Map<String, Object> of(Target target) {
        return target.capability(ServerInfo.class)
                .map(info -> {
                    try {
                        return info.settings();
                    } catch (TargetException e) {
                        return Map.<String, Object>of("error", String.valueOf(e.getMessage()));
                    }
                })
                .orElse(Map.of());
    }

    /**
     * The settings whose values differ, as {@code name primary-value vs instance-value} ("unset" where one
     * side does not report it), in name order; empty when both report the same (or either reports an error).
     */
    static List<String> differing(Map<String, Object> primary, Map<String, Object> instance) {
        List<String> out = new ArrayList<>();
        if (primary.containsKey("error") || instance.containsKey("error")) {
            return out;
        }
        TreeSet<String> names = new TreeSet<>(primary.keySet());
        names.addAll(instance.keySet());
        for (String name : names) {
            Object a = primary.get(name);
            Object b = instance.get(name);
            if (!Objects.equals(text(a), text(b))) {
                out.add(name + " " + text(a) + " vs " + text(b));
            }
        }
        return out;
    }

    private static String text(Object value) {
        return value == null ? "unset" : value.toString();
    }
}
