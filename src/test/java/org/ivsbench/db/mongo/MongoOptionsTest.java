package org.ivsbench.db.mongo;

import java.util.Map;

import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import org.junit.jupiter.api.Test;

import org.ivsbench.db.TargetException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MongoOptionsTest {

    @Test
    void defaults() throws TargetException {
        MongoOptions o = MongoOptions.parse(Map.of());
        assertNull(o.writeConcern(), "absent = as the URL says");
        assertNull(o.readPreference());
        assertNull(o.tls());
        assertEquals(MongoOptions.ExtendFallback.CLIENT, o.extendFallback());
        assertTrue(o.lowercaseFields());
    }

    @Test
    void everyDocumentedValue() throws TargetException {
        assertEquals(
                WriteConcern.W1,
                MongoOptions.parse(Map.of("writeConcern", "w1")).writeConcern());
        assertEquals(
                WriteConcern.W2,
                MongoOptions.parse(Map.of("writeConcern", "W2")).writeConcern());
        assertEquals(
                WriteConcern.MAJORITY,
                MongoOptions.parse(Map.of("writeConcern", "majority")).writeConcern());
        assertEquals(
                WriteConcern.ACKNOWLEDGED,
                MongoOptions.parse(Map.of("writeconcern", "acknowledged")).writeConcern());
        assertEquals(
                WriteConcern.UNACKNOWLEDGED,
                MongoOptions.parse(Map.of("writeConcern", "unacknowledged")).writeConcern());
        assertEquals(
                WriteConcern.JOURNALED,
                MongoOptions.parse(Map.of("writeConcern", "journaled")).writeConcern());
        assertEquals(
                ReadPreference.secondaryPreferred(),
                MongoOptions.parse(Map.of("readPreference", "secondaryPreferred"))
                        .readPreference());
        assertEquals(
                ReadPreference.primary(),
                MongoOptions.parse(Map.of("readPreference", "primary")).readPreference());
        MongoOptions tls = MongoOptions.parse(Map.of("tls", "true", "tlsAllowInvalidHostnames", "false"));
        assertEquals(true, tls.tls());
        assertEquals(false, tls.tlsAllowInvalidHostnames());
        assertEquals(
                MongoOptions.ExtendFallback.FAIL,
                MongoOptions.parse(Map.of("extendFallback", "fail")).extendFallback());
        assertEquals(
                false, MongoOptions.parse(Map.of("lowercaseFields", "false")).lowercaseFields());
    }

    @Test
    void unknownNamesAndBadValuesAreNamed() {
        assertMessage(Map.of("writeConcen", "w1"), "'writeConcen'");
        assertMessage(Map.of("writeConcern", "w"), "writeConcern='w'");
        assertMessage(Map.of("readPreference", "closest"), "readPreference='closest'");
        assertMessage(Map.of("tls", "yes"), "tls='yes'");
        assertMessage(Map.of("extendFallback", "server"), "extendFallback='server'");
        assertMessage(Map.of("lowercaseFields", "1"), "lowercaseFields='1'");
    }

    private static void assertMessage(Map<String, String> options, String expected) {
        TargetException e = assertThrows(TargetException.class, () -> MongoOptions.parse(options));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
