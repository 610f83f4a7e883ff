package org.ivsbench.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The config as text with its secrets replaced by {@code *****}, for the copy kept with the results. It works on
 * the text rather than on a parsed tree so that the copy keeps the user's comments and layout and still shows
 * exactly what was run; it over-redacts rather than under-redacts (a secret in a comment goes too).
 */
public final class ConfigRedactor {
    public static final String MASK = "*****";

    /** An XML name containing "password" or "secret" in any case. */
    private static final String SECRET_NAME = "[\\w.:-]*(?i:password|secret)[\\w.:-]*";

    /** {@code <dbPassword attr="x">anything, even CDATA</dbPassword>}; the closing tag must repeat the name. */
    private static final Pattern SECRET_ELEMENT =
            Pattern.compile("(<(" + SECRET_NAME + ")(?:\\s[^>]*)?(?<!/)>)(.*?)(</\\2\\s*>)", Pattern.DOTALL);

    private static final Pattern SECRET_ATTRIBUTE =
            Pattern.compile("(\\s" + SECRET_NAME + "\\s*=\\s*)(\"[^\"]*\"|'[^']*')");
    /** {@code scheme://user:secret@host}: MongoDB URIs in particular carry their credentials this way. */
    private static final Pattern URL_USERINFO =
            Pattern.compile("([a-zA-Z][\\w+.-]*://[^:/@\\s<>\"']*:)([^@/\\s<>\"']+)(@)");
    /** {@code ?password=x} or {@code &amp;secretKey=x} in a JDBC URL's query. */
    private static final Pattern URL_PARAMETER = Pattern.compile("([?&;](?:amp;)?" + SECRET_NAME + "=)([^&;<\\s\"']*)");

    private ConfigRedactor() {}

    /** The file's text (read as UTF-8) with every secret masked. */
    public static String redactedXml(Path xmlFile) throws ConfigException {
        String text;
        try {
            text = Files.readString(xmlFile, StandardCharsets.UTF_8);
        } catch (IOException | SecurityException e) {
            throw new ConfigException(SafeXml.label(xmlFile), "cannot read config file '" + xmlFile + "': " + e);
        }
        return redact(text);
    }

    /** Masks secrets in XML text. */
    public static String redact(String xml) {
        String result = replace(SECRET_ATTRIBUTE, xml, m -> m.group(1) + quote(m.group(2)));
        // Attributes are masked first so the element pattern's opening tag is already clean.
        result = replace(SECRET_ELEMENT, result, m -> m.group(1) + (m.group(3).isEmpty() ? "" : MASK) + m.group(4));
        result = replace(URL_USERINFO, result, m -> m.group(1) + MASK + m.group(3));
        return replace(URL_PARAMETER, result, m -> m.group(1) + MASK);
    }

    private static String quote(String quoted) {
        char q = quoted.charAt(0);
        return q + MASK + q;
    }

    private static String replace(Pattern pattern, String text, Function<Matcher, String> with) {
        Matcher m = pattern.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(with.apply(m)));
        }
        m.appendTail(out);
        return out.toString();
    }
}
