package org.ivsbench.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One XML element with the path the user sees in errors ({@code works/work[2]/rate}). All structural strictness
 * lives here: unknown children, repeated single elements, attributes and stray text are rejected, so a typo can
 * never silently fall back to a default. The typed readers of its leaves are {@link Leaves}'s, shared with the
 * benchmark parameters and the experiment section.
 */
final class Element extends Leaves {
    private final XmlNode node;
    private final String path;

    Element(XmlNode node, String path) {
        this.node = node;
        this.path = path;
    }

    String path() {
        return path;
    }

    String name() {
        return node.name();
    }

    @Override
    public String childPath(String child) {
        return path.isEmpty() ? child : path + "/" + child;
    }

    boolean hasChildren() {
        return !node.children().isEmpty();
    }

    /** Rejects attributes, stray text and every child element whose name is not in {@code known}. */
    Element requireSection(Collection<String> known) throws ConfigException {
        requireContainer();
        for (XmlNode child : node.children()) {
            if (!known.contains(child.name())) {
                throw unknown(childPath(child.name()), child.name(), known);
            }
        }
        return this;
    }

    /** Rejects attributes and text: a section holds elements only. */
    void requireContainer() throws ConfigException {
        requireNoAttributes();
        String text = rawText();
        if (!text.isBlank()) {
            throw new ConfigException(
                    path, "unexpected text '" + text.strip() + "' (this element holds only elements)");
        }
    }

    void requireNoAttributes() throws ConfigException {
        for (String attribute : node.attributes().keySet()) {
            throw new ConfigException(
                    path + "/@" + attribute,
                    "unknown attribute '" + attribute + "' with value '"
                            + node.attributes().get(attribute) + "' (ivsbench config elements take no attributes)");
        }
    }

    /** The child named {@code name}, or null; an error when it is given more than once. */
    Element single(String name) throws ConfigException {
        List<XmlNode> found = node.children(name);
        if (found.isEmpty()) {
            return null;
        }
        if (found.size() > 1) {
            List<String> values = new ArrayList<>();
            for (XmlNode n : found) {
                values.add("'" + textOf(n).strip() + "'");
            }
            throw new ConfigException(
                    childPath(name),
                    "given " + found.size() + " times (" + String.join(", ", values) + "); give it once");
        }
        return new Element(found.get(0), childPath(name));
    }

    /** Every child named {@code name}, with 1-based indices in their paths even when there is only one. */
    List<Element> repeated(String name) {
        List<XmlNode> found = node.children(name);
        List<Element> result = new ArrayList<>(found.size());
        for (int i = 0; i < found.size(); i++) {
            result.add(new Element(found.get(i), childPath(name) + "[" + (i + 1) + "]"));
        }
        return result;
    }

    List<Element> children() {
        List<Element> result = new ArrayList<>();
        for (XmlNode child : node.children()) {
            result.add(new Element(child, childPath(child.name())));
        }
        return result;
    }

    /** The text of a leaf element (trimmed by the parser); an error when it has attributes or child elements. */
    String text() throws ConfigException {
        requireNoAttributes();
        if (hasChildren()) {
            throw new ConfigException(
                    path,
                    "expected a value, found child element <"
                            + node.children().get(0).name() + ">");
        }
        return rawText();
    }

    private String rawText() {
        return textOf(node);
    }

    private static String textOf(XmlNode n) {
        return n.value();
    }

    /** Leaf text of child {@code name}, or null when absent; an error when it is given twice or holds elements. */
    @Override
    public String leaf(String name) throws ConfigException {
        Element child = single(name);
        return child == null ? null : child.text();
    }
}
