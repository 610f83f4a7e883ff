package org.ivsbench.config;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The typed view of a flattened section: a benchmark's parameters ({@code recordcount}, {@code keys/length}), a
 * phase's ({@code works/work[2]/distribution}) or the {@code <experiment>} ({@code experiment/extend/count}). The
 * loader walks these sections as {@link Element}s and keeps their leaves as "name/child" text, so that derived
 * configs (an experiment's baselines, {@code --shrink}) can change a value; modules read them back through this
 * view, with the same readers and error texts as the core sections ({@link Leaves}).
 */
public final class LeafView extends Leaves {
    private final Map<String, String> leaves;
    private final String path;

    private LeafView(Map<String, String> leaves, String path) {
        this.leaves = leaves;
        this.path = path;
    }

    /**
     * A view of {@code leaves} (leaf path to text, as the loader flattens a section) whose errors are reported
     * under {@code path} ("" for top-level elements, {@code experiment}, {@code works/work[2]}).
     */
    public static LeafView of(Map<String, String> leaves, String path) {
        return new LeafView(sorted(leaves == null ? Map.of() : leaves), path);
    }

    /** Sorted by leaf path, so that the first of several mistakes reported is the same in every run. */
    private static Map<String, String> sorted(Map<String, String> leaves) {
        return Collections.unmodifiableMap(new TreeMap<>(leaves));
    }

    /** The path of this section itself ("" for the top level). */
    public String path() {
        return path;
    }

    @Override
    public String leaf(String name) {
        String text = leaves.get(name);
        return text == null ? null : text.strip();
    }

    @Override
    public String childPath(String name) {
        return path.isEmpty() ? name : path + "/" + name;
    }

    /** The leaf paths of this view, relative to it. */
    public Set<String> names() {
        return leaves.keySet();
    }

    public boolean isEmpty() {
        return leaves.isEmpty();
    }

    /** The leaves under {@code name} ("keys/length" becomes "length"), reported under {@code <path>/name}. */
    public LeafView section(String name) {
        String prefix = name + "/";
        Map<String, String> inner = new TreeMap<>();
        for (Map.Entry<String, String> e : leaves.entrySet()) {
            if (e.getKey().startsWith(prefix)) {
                inner.put(e.getKey().substring(prefix.length()), e.getValue());
            }
        }
        return new LeafView(Collections.unmodifiableMap(inner), childPath(name));
    }

    /**
     * The element {@code name} as a group of the elements {@code known}: empty when absent; an error when it holds
     * text instead ("'x' must hold elements (a, b), e.g. {@code example}") or an element {@code known} does not
     * list.
     */
    public LeafView group(String name, Collection<String> known, String example) throws ConfigException {
        String text = leaf(name);
        if (text != null) {
            throw error(
                    name,
                    "'" + text + "' must hold elements (" + String.join(", ", new TreeSet<>(known)) + "), e.g. "
                            + example);
        }
        LeafView group = section(name);
        group.requireKnown(known);
        return group;
    }

    /**
     * Rejects a leaf that {@code known} does not list, neither as itself nor as its group (known "keys" covers
     * "keys/length"), with the core sections' "unknown element (did you mean ...?) (known: ...)" error.
     */
    public void requireKnown(Collection<String> known) throws ConfigException {
        for (String name : leaves.keySet()) {
            int slash = name.indexOf('/');
            if (!known.contains(name) && (slash < 0 || !known.contains(name.substring(0, slash)))) {
                throw unknown(name, known);
            }
        }
    }

    /** The error for leaf {@code name} that {@code known} does not list. */
    public ConfigException unknown(String name, Collection<String> known) {
        return Leaves.unknown(childPath(name), name, new TreeSet<>(known));
    }
}
