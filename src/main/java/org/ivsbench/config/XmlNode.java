package org.ivsbench.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.w3c.dom.Text;

/**
 * One element of a parsed config, immutable: its name, its attributes (which {@link Element} rejects, so that they
 * can be named in the error), its text (the element's own text and CDATA pieces joined, trimmed) and its child
 * elements in document order. Comments and processing instructions are dropped.
 */
record XmlNode(String name, Map<String, String> attributes, String value, List<XmlNode> children) {
    XmlNode {
        attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
        children = List.copyOf(children);
    }

    /** The tree under DOM element {@code element}. */
    static XmlNode of(org.w3c.dom.Element element) {
        Map<String, String> attributes = new LinkedHashMap<>();
        NamedNodeMap attributeNodes = element.getAttributes();
        for (int i = 0; i < attributeNodes.getLength(); i++) {
            Node a = attributeNodes.item(i);
            attributes.put(a.getNodeName(), a.getNodeValue());
        }
        List<XmlNode> children = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        NodeList nodes = element.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node n = nodes.item(i);
            if (n instanceof org.w3c.dom.Element child) {
                children.add(of(child));
            } else if (n instanceof Text piece) {
                // CDATASection is a Text too: <![CDATA[a<b]]> reads as "a<b".
                text.append(piece.getData());
            }
        }
        return new XmlNode(element.getTagName(), attributes, text.toString().trim(), children);
    }

    /** The child elements named {@code childName}, in document order. */
    List<XmlNode> children(String childName) {
        return children.stream().filter(c -> c.name.equals(childName)).toList();
    }
}
