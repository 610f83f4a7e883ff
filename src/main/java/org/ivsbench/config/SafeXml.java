package org.ivsbench.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Reads a config file into an {@link XmlNode} tree with the JDK's parser set so that it cannot be made to fetch
 * anything: configs are often copied from others, and a DOCTYPE with an external entity would otherwise let a
 * config file read local files or reach the network (XXE), or an entity expansion exhaust memory ("billion
 * laughs"). A DOCTYPE is refused outright. Errors name the file, as there is no element yet.
 */
final class SafeXml {
    private SafeXml() {}

    /** The document's root node; its name is the root element's name. */
    static XmlNode read(Path file) throws ConfigException {
        String label = label(file);
        byte[] bytes = readBytes(file, label);
        if (new String(bytes, StandardCharsets.ISO_8859_1).isBlank()) {
            throw new ConfigException(label, "config file '" + file + "' is empty");
        }
        try {
            return XmlNode.of(
                    hardenedBuilder().parse(new ByteArrayInputStream(bytes)).getDocumentElement());
        } catch (SAXException | IOException e) {
            throw malformed(file, label, e);
        }
    }

    /** The file name alone: the path of document-level errors, stable wherever the file lives. */
    static String label(Path file) {
        Path name = file.getFileName();
        return name == null ? file.toString() : name.toString();
    }

    private static byte[] readBytes(Path file, String label) throws ConfigException {
        if (Files.isDirectory(file)) {
            throw new ConfigException(label, "'" + file + "' is a directory, not a config file");
        }
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(label, "config file '" + file + "' does not exist");
        } catch (IOException | SecurityException e) {
            throw new ConfigException(label, "cannot read config file '" + file + "': " + e);
        }
    }

    private static ConfigException malformed(Path file, String label, Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SAXParseException spe) {
                String detail = spe.getMessage();
                if (detail != null && detail.contains("DOCTYPE is disallowed")) {
                    detail = "a DOCTYPE declaration is not allowed (ivsbench loads no DTDs or external entities)";
                }
                return new ConfigException(
                        label,
                        "malformed XML in '" + file + "' at line " + spe.getLineNumber() + ", column "
                                + spe.getColumnNumber() + ": " + detail);
            }
        }
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return new ConfigException(label, "malformed XML in '" + file + "': " + root.getMessage());
    }

    private static DocumentBuilder hardenedBuilder() {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            factory.setValidating(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            // Belt and braces: even if a parser ignored a feature above, nothing external is resolved.
            builder.setEntityResolver((publicId, systemId) -> {
                throw new SAXException("external entity '" + systemId + "' is not allowed");
            });
            // The default handler prints "[Fatal Error]" to stderr before throwing; the message is ours to give.
            builder.setErrorHandler(new ErrorHandler() {
                @Override
                public void warning(SAXParseException e) {}

                @Override
                public void error(SAXParseException e) throws SAXException {
                    throw e;
                }

                @Override
                public void fatalError(SAXParseException e) throws SAXException {
                    throw e;
                }
            });
            return builder;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser lacks a required safety feature", e);
        }
    }
}
