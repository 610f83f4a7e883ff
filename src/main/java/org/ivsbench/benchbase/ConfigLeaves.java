package org.ivsbench.benchbase;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/** The top-level text elements of a run's (redacted) config.xml, e.g. isolation, scalefactor, terminals. */
final class ConfigLeaves {
    private ConfigLeaves() {}

    static Map<String, String> read(Path file) throws IOException {
        Map<String, String> leaves = new HashMap<>();
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            // The copy was written by this tool, but never resolve entities or external files from XML.
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setExpandEntityReferences(false);
            DocumentBuilder builder = f.newDocumentBuilder();
            Element root = builder.parse(file.toFile()).getDocumentElement();
            for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getElementsByTagName("*").getLength() == 0) {
                    leaves.putIfAbsent(e.getTagName(), e.getTextContent().trim());
                }
            }
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
        return leaves;
    }
}
