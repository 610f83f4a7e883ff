package org.ivsbench.bench.ycsbivs;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.bench.LoadProgress;
import org.ivsbench.config.BenchmarkConfig;
import org.ivsbench.config.ConfigException;
import org.ivsbench.db.Target;
import org.ivsbench.db.Targets;
import org.ivsbench.random.LoadOrder;
import org.ivsbench.random.Seeds;
import org.ivsbench.random.Sortedness;
import org.ivsbench.testsupport.RunHarness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A section's {@code <insertorder>}: the run's inserts reach SQLite in the planned near-sorted key order. */
class SectionInsertOrderTest {
    private static final int LOADED = 1000;
    private static final int INSERTS = 2000;

    @TempDir
    Path tmp;

    private String xml(Path db, String keyorder) {
        return "<parameters><type>SQLITE</type><url>jdbc:sqlite:" + db + "</url><terminals>1</terminals>"
                + "<randomSeed>9</randomSeed><fieldcount>1</fieldcount><fieldlength>10</fieldlength>"
                + "<keyorder>" + keyorder + "</keyorder><monitor><enabled>false</enabled></monitor>"
                + "<sections><section><name>ts</name><records>" + LOADED + "</records>"
                + "<keys><prefix>host:4</prefix></keys>"
                + "<insertorder><sortedness>0.3</sortedness><displacement>200</displacement>"
                + "<inserts>" + INSERTS + "</inserts></insertorder></section></sections>"
                + "<transactiontypes><transactiontype><name>InsertRecord</name></transactiontype>"
                + "<transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
                + "<works><work><count>" + INSERTS + "</count><rate>unlimited</rate><weights>100,0</weights></work>"
                + "<work><count>500</count><rate>unlimited</rate><weights>0,100</weights></work></works></parameters>";
    }

    @Test
    void theRunsInsertsArriveInThePlannedSortedness() throws Exception {
        Path db = tmp.resolve("order.db");
        BenchmarkConfig config = RunHarness.config(tmp, xml(db, "ordered"));
        YcsbIvsModule module = (YcsbIvsModule) RunHarness.module();
        try (Target target = Targets.open(config.target())) {
            module.create(config, target);
            module.load(config, target, LoadProgress.NONE);
            RunHarness.execute(module, config, target, tmp);
        }
        List<String> inserted = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT YCSB_KEY FROM usertable ORDER BY rowid")) {
            while (rs.next()) {
                inserted.add(rs.getString(1));
            }
        }
        assertEquals(LOADED + INSERTS, inserted.size());
        Sortedness measured = Sortedness.of(inserted.subList(LOADED, inserted.size()));
        Sections.Section section =
                YcsbIvsParameters.from(config).sections().list().get(0);
        Sortedness planned = LoadOrder.generate(
                        section.shape(), LOADED, INSERTS, 0.3, 200, Seeds.forStream(9, "insertorder", 0))
                .measured();
        assertEquals(planned.k(), measured.k(), 1e-12, "the database got the planned order");
        assertEquals(planned.l(), measured.l(), 1e-12);
        assertEquals(0.3, measured.k(), 0.05);
    }

    @Test
    void anInsertOrderNeedsOrderedKeys() {
        String message = assertThrows(
                        ConfigException.class, () -> RunHarness.config(tmp, xml(tmp.resolve("x.db"), "hashed")))
                .getMessage();
        assertEquals(
                "sections/section/insertorder/sortedness: '0.3' needs the section's keyorder ordered: hashed keys"
                        + " arrive in no key order to begin with",
                message);
    }
}
