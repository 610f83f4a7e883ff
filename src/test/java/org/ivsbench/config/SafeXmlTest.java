package org.ivsbench.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tree the loader walks, read straight from the JDK's parser: what an element's text is (trimmed, entities
 * and CDATA resolved, comments dropped, commas kept), what its attributes are, and that a DOCTYPE never loads.
 */
class SafeXmlTest {
    @TempDir
    Path tmp;

    private XmlNode read(String xml) throws Exception {
        return SafeXml.read(Files.writeString(tmp.resolve("c.xml"), xml));
    }

    @Test
    void textIsTrimmedWithEntitiesAndCdataResolvedAndCommentsDropped() throws Exception {
        XmlNode root = read("<parameters>\n  <!-- a comment -->\n  <a>  x &amp; y&#33; </a>\n"
                + "  <b><![CDATA[1<2]]> and more</b>\n  <c/>\n  <weights>50,50</weights>\n</parameters>\n");
        assertEquals("parameters", root.name());
        assertEquals("", root.value(), "whitespace between elements is no text");
        assertEquals(
                List.of("a", "b", "c", "weights"),
                root.children().stream().map(XmlNode::name).toList());
        assertEquals("x & y!", root.children("a").get(0).value());
        assertEquals("1<2 and more", root.children("b").get(0).value());
        assertEquals("", root.children("c").get(0).value());
        assertEquals("50,50", root.children("weights").get(0).value(), "a list stays one string");
    }

    @Test
    void attributesAndTextBesideElementsAreKeptForTheWalkerToReject() throws Exception {
        XmlNode root = read("<parameters><works unit=\"s\"> stray <work><time>5</time></work></works></parameters>");
        XmlNode works = root.children("works").get(0);
        assertEquals(Map.of("unit", "s"), works.attributes());
        assertEquals("stray", works.value());
        assertEquals(1, works.children("work").size());
        ConfigException e = assertThrows(ConfigException.class, () -> new Element(works, "works").requireContainer());
        assertEquals("works/@unit", e.path());
    }

    @Test
    void aDoctypeIsRefusedBeforeAnythingIsResolved() throws Exception {
        Path secret = Files.writeString(tmp.resolve("secret.txt"), "s3cret");
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> read("<!DOCTYPE p [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]><parameters>&x;</parameters>"));
        assertEquals("c.xml", e.path());
        assertTrue(e.getMessage().contains("a DOCTYPE declaration is not allowed"), e.getMessage());
        assertTrue(!e.getMessage().contains("s3cret"), e.getMessage());
    }

    @Test
    void malformedXmlNamesTheLineAndColumn() {
        ConfigException e = assertThrows(ConfigException.class, () -> read("<parameters>\n<a>1</b>\n</parameters>"));
        assertEquals("c.xml", e.path());
        assertTrue(e.getMessage().contains("at line 2, column"), e.getMessage());
    }
}
