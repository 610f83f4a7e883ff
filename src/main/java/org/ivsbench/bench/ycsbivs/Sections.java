package org.ivsbench.bench.ycsbivs;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.config.LeafView;
import org.ivsbench.config.PhaseConfig;
import org.ivsbench.random.KeyShape;

/**
 * The {@code <sections>} of a workload (docs/sections.md): sections run in order, each
 * with its own key space (records loaded, key order, {@code <keys>} shape) and its own live keys, which the
 * phases ({@code <work>}) of the section share. Without the element a workload has no sections and keeps the
 * meaning it always had (YCSB's key choice over recordcount).
 *
 * @param list the sections in run order; empty when the config declares none
 */
public record Sections(List<Section> list) {
    static final String NAME = "sections";
    /** The phase element naming the section a work runs in. */
    static final String PHASE_ELEMENT = "section";

    static final Set<String> CHILDREN =
            new TreeSet<>(Set.of("name", "records", "keyorder", KeysSection.NAME, InsertPlan.NAME, HotRange.NAME));
    private static final Pattern SECTION_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,31}");
    /** Top-level elements that a section sets for itself. */
    private static final List<String> PER_SECTION = List.of("recordcount", KeysSection.NAME);

    private static final Sections NONE = new Sections(List.of());

    /**
     * One section's key space.
     *
     * @param name    names the section in {@code <work><section>} and leads each of its keys ("orders/...")
     * @param records the records loaded into it (key numbers 0 .. records - 1)
     * @param shape   its key shape, led by "name/" ({@link KeyShape#led})
     * @param offset  where its records start in the load's record order (the sections one after another)
     * @param insertPlan the planned order of its first inserts ({@code <insertorder>}), or null: number order
     * @param hotRange the share of key choices its hot prefixes get ({@code <hotrange>}), or null: no hot range
     */
    public record Section(
            String name, long records, KeyShape shape, long offset, InsertPlan insertPlan, HotRange hotRange) {
        /** The key of a key number: the section's name, '/', then the rest by the section's {@code <keys>}. */
        public String key(long keynum) {
            return shape.key(keynum);
        }
    }

    public Sections {
        list = List.copyOf(list);
    }

    public boolean present() {
        return !list.isEmpty();
    }

    /** Records loaded over all sections. */
    long records() {
        long sum = 0;
        for (Section s : list) {
            sum += s.records();
        }
        return sum;
    }

    /** The section a phase runs in (validated: the first when the phase names none). */
    Section of(PhaseConfig phase) {
        String name = phase.parameterView().leaf(PHASE_ELEMENT);
        for (Section s : list) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return list.get(0);
    }

    /** The index of a section in run order. */
    int indexOf(Section section) {
        return list.indexOf(section);
    }

    /** The {@code <sections>} of the benchmark parameters {@code p}, or none. */
    static Sections parse(LeafView p, boolean ordered) throws ConfigException {
        String text = p.leaf(NAME);
        if (text != null) {
            throw p.error(
                    NAME,
                    "'" + text + "' must hold <section> elements, e.g. <sections><section><name>orders</name>"
                            + "<records>1000</records></section></sections>");
        }
        LeafView all = p.section(NAME);
        if (all.isEmpty()) {
            return NONE;
        }
        for (String name : PER_SECTION) {
            if (p.leaf(name) != null || !p.section(name).isEmpty()) {
                throw p.error(
                        name,
                        "'" + (p.leaf(name) == null ? "<" + name + ">" : p.leaf(name)) + "' is set per section when"
                                + " the workload has <sections>: give it in each <section> (<records>, <keys>)");
            }
        }
        List<LeafView> views = sectionViews(all);
        List<Section> sections = new ArrayList<>();
        Set<String> names = new TreeSet<>();
        long offset = 0;
        for (LeafView s : views) {
            s.requireKnown(CHILDREN);
            String name = s.required("name", "each section needs a name (it leads the section's keys)");
            if (!SECTION_NAME.matcher(name).matches()) {
                throw s.error("name", "'" + name + "' must be a letter then up to 31 letters, digits or '_'");
            }
            if (!names.add(name)) {
                throw s.error("name", "'" + name + "' names two sections; give each its own name");
            }
            long records = s.longAtLeast("records", 0, 0);
            boolean sectionOrdered = s.choice("keyorder", ordered ? "ordered" : "hashed", List.of("hashed", "ordered"))
                    .equals("ordered");
            KeysSection keys = KeysSection.parse(s, sectionOrdered, Math.max(1, records));
            if (keys.sortedness() != null) {
                throw s.section(KeysSection.NAME)
                        .error(
                                "sortedness",
                                "'" + keys.sortedness()
                                        + "' is not available within a section yet (the load order is the section's key order);"
                                        + " remove it");
            }
            KeyShape shape = keys.shape().led(name + "/");
            if (shape.longestNaturalKey() > KeyShape.LONGEST_KEY) {
                throw s.error(
                        "name",
                        "'" + name + "' makes the section's keys longer than " + KeyShape.LONGEST_KEY
                                + " bytes; use a shorter name");
            }
            sections.add(new Section(
                    name, records, shape, offset, InsertPlan.parse(s, sectionOrdered), HotRange.parse(s, shape)));
            offset += records;
        }
        return new Sections(sections);
    }

    /** One view per {@code <section>}: "section/..." when there is one, "section[i]/..." when there are several. */
    private static List<LeafView> sectionViews(LeafView all) throws ConfigException {
        List<LeafView> views = new ArrayList<>();
        Set<String> groups = new TreeSet<>();
        for (String leaf : all.names()) {
            int slash = leaf.indexOf('/');
            String group = slash < 0 ? leaf : leaf.substring(0, slash);
            if (slash < 0 || !group.matches("section(\\[[0-9]+])?")) {
                throw all.unknown(group, Set.of("section"));
            }
            groups.add(group);
        }
        if (groups.contains("section")) {
            views.add(all.section("section"));
            return views;
        }
        for (int i = 1; groups.contains("section[" + i + "]"); i++) {
            views.add(all.section("section[" + i + "]"));
        }
        return views;
    }

    /**
     * The phases' {@code <section>}: a declared name, required when there are several sections, sections in
     * their declared order (a section, once left, is not returned to); none without {@code <sections>}.
     */
    void validatePhases(BenchmarkConfig config) throws ConfigException {
        int current = 0;
        for (PhaseConfig phase : config.phases()) {
            LeafView view = phase.parameterView();
            String name = view.leaf(PHASE_ELEMENT);
            if (!present()) {
                if (name != null) {
                    throw view.error(
                            PHASE_ELEMENT,
                            "'" + name + "' names a section, but the workload has no"
                                    + " <sections>; declare them or remove it");
                }
                continue;
            }
            if (name == null) {
                if (list.size() > 1) {
                    throw view.error(
                            PHASE_ELEMENT,
                            "is missing: with several <sections>, each work names the" + " section it runs in ("
                                    + names() + ")");
                }
                continue;
            }
            int index = -1;
            for (int i = 0; i < list.size(); i++) {
                index = list.get(i).name().equals(name) ? i : index;
            }
            if (index < 0) {
                throw view.error(PHASE_ELEMENT, "'" + name + "' is not a declared section (" + names() + ")");
            }
            if (index < current) {
                throw view.error(
                        PHASE_ELEMENT,
                        "'" + name + "' comes after section '"
                                + list.get(current).name()
                                + "': sections run in the order they are declared, each once");
            }
            current = index;
        }
    }

    private String names() {
        List<String> names = new ArrayList<>();
        for (Section s : list) {
            names.add(s.name());
        }
        return String.join(", ", names);
    }
}
