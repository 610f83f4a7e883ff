package org.ivsbench.experiment;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ServerSettingsTest {
    @Test
    void differingNamesEveryValueThatIsNotTheSameOnBothSides() {
        Map<String, Object> primary =
                Map.of("innodb_buffer_pool_size", 134217728L, "innodb_flush_method", "O_DIRECT", "log_bin", "OFF");
        Map<String, Object> instance =
                Map.of("innodb_buffer_pool_size", 268435456L, "innodb_flush_method", "O_DIRECT", "sync_binlog", 0L);
        assertEquals(
                List.of(
                        "innodb_buffer_pool_size 134217728 vs 268435456",
                        "log_bin OFF vs unset",
                        "sync_binlog unset vs 0"),
                ServerSettings.differing(primary, instance));
    }

    @Test
    void theSameSettingsOrAnUnreadableSideAreNoDifference() {
        Map<String, Object> s = Map.of("shared_buffers", "128MB", "max_wal_size", "1GB");
        assertEquals(List.of(), ServerSettings.differing(s, Map.of("max_wal_size", "1GB", "shared_buffers", "128MB")));
        assertEquals(List.of(), ServerSettings.differing(s, Map.of("error", "connection refused")));
    }
}
