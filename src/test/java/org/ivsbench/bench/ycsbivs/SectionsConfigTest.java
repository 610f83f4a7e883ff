package org.ivsbench.bench.ycsbivs;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code <sections>} as read from XML: what it configures, and one clear line per mistake, naming path and value. */
class SectionsConfigTest {
    private static final String TWO = "<sections><section><name>a</name><records>10</records></section>"
            + "<section><name>b</name><records>5</records><keyorder>hashed</keyorder>"
            + "<keys><prefix>user:4</prefix></keys></section></sections>";

    @TempDir
    Path tmp;

    private static String xml(String parameters, String types, String works) {
        return "<parameters><type>SQLITE</type><url>jdbc:sqlite:x.db</url><keyorder>ordered</keyorder>" + parameters
                + "<transactiontypes>" + types + "</transactiontypes><works>" + works + "</works></parameters>";
    }

    private static String type(String name) {
        return "<transactiontype><name>" + name + "</name></transactiontype>";
    }

    private static String work(String section) {
        return "<work><count>10</count><rate>unlimited</rate><weights>100</weights>"
                + (section == null ? "" : "<section>" + section + "</section>") + "</work>";
    }

    private BenchmarkConfig load(String xml) throws Exception {
        return RunHarness.config(tmp, xml);
    }

    private String error(String xml) {
        return assertThrows(ConfigException.class, () -> load(xml)).getMessage();
    }

    @Test
    void sectionsConfigureTheirOwnKeySpaces() throws Exception {
        YcsbIvsParameters p = YcsbIvsParameters.from(load(xml(TWO, type("ReadRecord"), work("a") + work("b"))));
        Sections s = p.sections();
        assertEquals(2, s.list().size());
        assertEquals(15, p.recordCount(), "the load is every section's records");
        assertEquals("a/0000000003", s.list().get(0).key(3));
        assertEquals(10, s.list().get(1).offset());
        assertEquals("b/user2/", s.list().get(1).key(7).substring(0, 8));
        assertFalse(s.list().get(1).shape().ordered());
    }

    @Test
    void aConfigWithoutSectionsHasNone() throws Exception {
        YcsbIvsParameters p =
                YcsbIvsParameters.from(load(xml("<recordcount>7</recordcount>", type("ReadRecord"), work(null))));
        assertFalse(p.sections().present());
        assertEquals("user3", p.keyName(3));
    }

    @Test
    void mistakesNameThePathAndTheValue() {
        String read = type("ReadRecord");
        assertEquals(
                "works/work[2]/section: 'c' is not a declared section (a, b)",
                error(xml(TWO, read, work("a") + work("c"))));
        assertEquals(
                "works/work[1]/section: is missing: with several <sections>, each work names the section it runs"
                        + " in (a, b)",
                error(xml(TWO, read, work(null))));
        assertEquals(
                "works/work[2]/section: 'a' comes after section 'b': sections run in the order they are declared,"
                        + " each once",
                error(xml(TWO, read, work("b") + work("a"))));
        assertEquals(
                "sections/section[2]/name: 'a' names two sections; give each its own name",
                error(xml(TWO.replace("<name>b</name>", "<name>a</name>"), read, work("a"))));
        assertEquals(
                "recordcount: '5' is set per section when the workload has <sections>: give it in each <section>"
                        + " (<records>, <keys>)",
                error(xml("<recordcount>5</recordcount>" + TWO, read, work("a"))));
        assertEquals(
                "sections/section[1]/records: '-1' must be at least 0",
                error(xml(TWO.replace("<records>10</records>", "<records>-1</records>"), read, work("a"))));
        assertEquals(
                "sections/section/name: '9x' must be a letter then up to 31 letters, digits or '_'",
                error(xml("<sections><section><name>9x</name></section></sections>", read, work(null))));
        // A section's range delete removes the records between two of its live keys: key order must be number order.
        assertEquals(
                "transactiontypes/transactiontype[2]/name: 'RangeDeleteRecord' needs keys whose string order is their"
                        + " number order (with <sections> it deletes the records between a live key and the n-th live"
                        + " key after it): section 'b': the keys are hashed (keyorder hashed)",
                error(xml(TWO, read + type("RangeDeleteRecord"), work("a").replace("100", "50,50"))));
        assertEquals(
                "works/work[1]/section: 'a' names a section, but the workload has no <sections>; declare them or"
                        + " remove it",
                error(xml("", read, work("a"))));
    }

    @Test
    void unknownAndMisplacedElementsAreErrors() {
        String read = type("ReadRecord");
        String unknown = error(
                xml("<sections><section><name>a</name><recordz>1</recordz></section></sections>", read, work(null)));
        assertEquals("sections/section/recordz: unknown element", unknown.substring(0, unknown.indexOf(" (")));
        String sorted = error(xml(
                "<sections><section><name>a</name><keys><sortedness>0.1</sortedness></keys></section></sections>",
                read,
                work(null)));
        assertEquals(
                "sections/section/keys/sortedness: '0.1' is not available within a section yet (the load order is"
                        + " the section's key order); remove it",
                sorted);
    }

    private static String hot(String keys, String range) {
        return "<sections><section><name>a</name><records>100</records>" + keys + "<hotrange>" + range
                + "</hotrange></section></sections>";
    }

    @Test
    void aHotRangeIsReadAndItsMistakesNamed() throws Exception {
        String read = type("ReadRecord");
        String tenPrefixes = "<keys><prefix>range:10</prefix></keys>";
        Sections s = YcsbIvsParameters.from(
                        load(xml(hot(tenPrefixes, "<prefixes>2</prefixes><share>0.75</share>"), read, work(null))))
                .sections();
        assertEquals(new HotRange(2, 0.75), s.list().get(0).hotRange());
        assertEquals(
                "sections/section/hotrange/prefixes: '1' needs a section whose keys have at least two prefixes"
                        + " (<keys><prefix>, e.g. range:10); a key space of one prefix has no range to set apart",
                error(xml(hot("", "<prefixes>1</prefixes><share>0.9</share>"), read, work(null))));
        assertEquals(
                "sections/section/hotrange/prefixes: '10' is too large (at most 9)",
                error(xml(hot(tenPrefixes, "<prefixes>10</prefixes><share>0.9</share>"), read, work(null))));
        assertEquals(
                "sections/section/hotrange/share: '1.5' must be in [0, 1]",
                error(xml(hot(tenPrefixes, "<prefixes>1</prefixes><share>1.5</share>"), read, work(null))));
        assertEquals(
                "sections/section/hotrange/share: missing: the share of the key choices that go to the hot"
                        + " prefixes, in [0, 1]",
                error(xml(hot(tenPrefixes, "<prefixes>1</prefixes>"), read, work(null))));
    }
}
