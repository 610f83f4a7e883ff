package org.ivsbench.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.ivsbench.db.TargetKinds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigLoaderTest {
    private static final Path GOOD = Path.of("src/test/resources/config/good");

    @TempDir
    Path dir;

    @Test
    void minimalConfigGetsEveryDefault() throws ConfigException {
        BenchmarkConfig c = YcsbIvsNames.load(GOOD.resolve("minimal.xml"));
        TargetConfig t = c.target();
        assertEquals("SQLITE", t.type());
        assertEquals("org.sqlite.JDBC", t.driver());
        assertEquals("jdbc:sqlite:minimal.db", t.url());
        assertNull(t.username());
        assertNull(t.password());
        assertEquals("TRANSACTION_SERIALIZABLE", t.isolation());
        assertFalse(t.reconnectOnConnectionFailure());
        assertEquals(Map.of(), t.options());

        assertEquals(GOOD.resolve("minimal.xml").toAbsolutePath().normalize(), c.source());
        assertEquals(1, c.terminals());
        assertEquals(Math.min(4, Runtime.getRuntime().availableProcessors()), c.loaderThreads());
        assertEquals(0, c.randomSeed());
        assertEquals(128, c.batchSize());
        assertEquals(1.0, c.scaleFactor());
        assertEquals(List.of(new TransactionTypeConfig("ReadRecord", 0, 0)), c.transactionTypes());
        assertEquals(Map.of(), c.parameters());
        assertEquals(MonitorConfig.defaults(), c.monitor());
        assertNull(c.experiment());

        PhaseConfig p = c.phases().get(0);
        assertEquals(
                PhaseConfig.builder(0).timeSeconds(5).weights(List.of(100.0)).build(), p);
        assertFalse(p.endsByCount());
    }

    @Test
    void fullConfigIsReadAsWritten() throws ConfigException {
        BenchmarkConfig c = YcsbIvsNames.load(GOOD.resolve("full.xml"), Map.of("IVS_TEST_PASSWORD", "pa,ss word"));
        TargetConfig t = c.target();
        assertEquals("MARIADB", t.type());
        assertEquals("jdbc:mariadb://127.0.0.1:3306/ivsbench?useCompression=false&connectTimeout=5000", t.url());
        assertEquals("ivs", t.username());
        assertEquals("pa,ss word", t.password());
        assertEquals("TRANSACTION_READ_COMMITTED", t.isolation());
        assertTrue(t.reconnectOnConnectionFailure());
        assertEquals(Map.of("useSsl", "true", "trustStore", "/etc/ivs/truststore.jks"), t.options());
        assertFalse(t.toString().contains("pa,ss"), "toString redacts the password");

        assertEquals(8, c.terminals());
        assertEquals(3, c.loaderThreads());
        assertEquals(-7, c.randomSeed());
        assertEquals(500, c.batchSize());
        assertEquals(2.5, c.scaleFactor());
        assertEquals(Map.of("recordcount", "10000", "engine", "RocksDB", "extendmethod", "server"), c.parameters());
        assertEquals(
                List.of(
                        new TransactionTypeConfig("ReadRecord", 5, 7),
                        new TransactionTypeConfig("ExtendRecord", 0, 0),
                        new TransactionTypeConfig("ScanRecord", 0, 0)),
                c.transactionTypes());
        assertEquals(List.of("ReadRecord", "ExtendRecord", "ScanRecord"), c.transactionTypeNames());

        assertEquals(3, c.phases().size());
        assertEquals(
                PhaseConfig.builder(0)
                        .name("load-up")
                        .count(10000)
                        .warmupSeconds(3)
                        .rate(RateSpec.open(250.5))
                        .arrival(ArrivalKind.POISSON)
                        .weights(List.of(33.33, 33.33, 33.34))
                        .activeTerminals(4)
                        .serial(true)
                        .thinkTimeMs(20)
                        .maxLatenessMs(250)
                        .parameters(Map.of("distribution", "zipfian"))
                        .build(),
                c.phases().get(0));
        assertTrue(c.phases().get(0).endsByCount());
        assertEquals(
                PhaseConfig.builder(1)
                        .timeSeconds(60)
                        .rate(RateSpec.disabled())
                        .weights(List.of(100.0, 0.0, 0.0))
                        .activeTerminals(8)
                        .build(),
                c.phases().get(1));
        assertEquals(RateSpec.unlimited(), c.phases().get(2).rate());
        assertEquals(Map.of("distribution", "uniform"), c.phases().get(2).parameters());

        assertEquals(new MonitorConfig(false, 250, "[::1]:9100", "mariadbd", "/run/mysqld/mysqld.pid"), c.monitor());

        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("epochs", "5");
        expected.put("extend/count", "10000");
        expected.put("extend/distribution", "zipfian");
        expected.put("read/count", "100000");
        expected.put("modes/mode[1]", "main");
        expected.put("modes/mode[2]", "clean");
        expected.put("modeList", "main,clean");
        expected.put("note", "");
        assertEquals(expected, c.experiment());
    }

    @Test
    void theModelCannotBeChangedAfterLoading() throws ConfigException {
        BenchmarkConfig c = YcsbIvsNames.load(GOOD.resolve("full.xml"), Map.of("IVS_TEST_PASSWORD", "x"));
        assertThrows(UnsupportedOperationException.class, () -> c.phases().clear());
        assertThrows(
                UnsupportedOperationException.class,
                () -> c.phases().get(0).weights().set(0, 1.0));
        assertThrows(UnsupportedOperationException.class, () -> c.parameters().put("a", "b"));
        assertThrows(UnsupportedOperationException.class, () -> c.experiment().put("a", "b"));
        assertThrows(
                UnsupportedOperationException.class, () -> c.target().options().put("a", "b"));
    }

    @Test
    void aGroupedBenchmarkElementIsFlattenedIntoNameSlashChild() throws Exception {
        Path file = write(
                "keys.xml",
                minimal("<keyorder>ordered</keyorder><keys><length>32</length><sortedness>0.1</sortedness></keys>"));
        Map<String, String> p = YcsbIvsNames.load(file).parameters();
        assertEquals("32", p.get("keys/length"));
        assertEquals("0.1", p.get("keys/sortedness"));
        assertEquals("ordered", p.get("keyorder"));
        assertTrue(!p.containsKey("keys"), "the group itself is not a parameter: " + p);
    }

    @Test
    void emptyExperimentSectionIsAnEmptyMapNotNull() throws Exception {
        Path file = write("exp.xml", minimal("<experiment/>"));
        assertEquals(Map.of(), YcsbIvsNames.load(file).experiment());
    }

    @Test
    void passwordFileIsResolvedAgainstTheConfigFolderAndOnlyItsFirstLineIsUsed() throws Exception {
        Files.writeString(dir.resolve("db.secret"), "  s3cret pass  \r\nsecond line\n");
        Path file = write("pw.xml", mariadb("<passwordFile>db.secret</passwordFile>"));
        assertEquals("  s3cret pass  ", YcsbIvsNames.load(file).target().password());
    }

    @Test
    void monitorExportersAreReadWithTheirBasicAuthPasswordFromItsFile() throws Exception {
        Files.writeString(dir.resolve("prom.secret"), "pr0m\n");
        Path file = write(
                "exp.xml",
                mariadb("<monitor><exporters><node>https://db:9100/metrics</node>"
                        + "<process>https://db:9256/metrics</process><mysqld>https://db:9104/metrics</mysqld>"
                        + "<user>prom</user><passwordFile>prom.secret</passwordFile></exporters></monitor>"));
        ExportersConfig e = YcsbIvsNames.load(file).monitor().exporters();
        assertEquals(
                new ExportersConfig(
                        "https://db:9100/metrics",
                        "https://db:9256/metrics",
                        "https://db:9104/metrics",
                        null,
                        "prom",
                        "pr0m"),
                e);
        assertEquals("https://db:9104/metrics", e.database());
        assertTrue(!e.toString().contains("pr0m"), e.toString());
        assertEquals(
                null,
                YcsbIvsNames.load(write("none.xml", minimal(""))).monitor().exporters());
    }

    @Test
    void agentTlsWithATrustStoreResolvedAgainstTheConfigFolder() throws Exception {
        Files.writeString(dir.resolve("trust.p12"), "not parsed here");
        Files.writeString(dir.resolve("trust.pw"), "tr0st\n");
        Path file = write(
                "tls.xml",
                minimal("<monitor><agent>db:9100</agent><agentTrustStore>trust.p12</agentTrustStore>"
                        + "<agentTrustStorePasswordFile>trust.pw</agentTrustStorePasswordFile></monitor>"));
        MonitorConfig m = YcsbIvsNames.load(file).monitor();
        assertEquals(
                new AgentTlsConfig(dir.resolve("trust.p12").toAbsolutePath().toString(), "tr0st"), m.agentTls());
        assertTrue(!m.toString().contains("tr0st"), m.toString());
        Path jdk = write("jdk.xml", minimal("<monitor><agent>db:9100</agent><agentTls>true</agentTls></monitor>"));
        assertEquals(
                new AgentTlsConfig(null, null), YcsbIvsNames.load(jdk).monitor().agentTls());
        assertEquals(
                null,
                YcsbIvsNames.load(write("plain.xml", minimal(""))).monitor().agentTls());
    }

    @Test
    void passwordFileMayBeAbsolute() throws Exception {
        Path secret = Files.writeString(dir.resolve("abs.secret"), "abc\n");
        Path sub = Files.createDirectories(dir.resolve("sub"));
        Path file = Files.writeString(
                sub.resolve("pw.xml"), mariadb("<passwordFile>" + secret.toAbsolutePath() + "</passwordFile>"));
        assertEquals("abc", YcsbIvsNames.load(file).target().password());
    }

    @Test
    void emptyPasswordFileIsAnError() throws Exception {
        Files.writeString(dir.resolve("empty.secret"), "");
        Path file = write("pw.xml", mariadb("<passwordFile>empty.secret</passwordFile>"));
        ConfigException e = assertThrows(ConfigException.class, () -> YcsbIvsNames.load(file));
        assertEquals("passwordFile", e.path());
        assertTrue(e.getMessage().contains("'empty.secret' is empty"), e.getMessage());
    }

    @Test
    void plainPasswordAndEmptyPasswordAreKept() throws Exception {
        assertEquals(
                "p@ss<&>",
                YcsbIvsNames.load(write("a.xml", mariadb("<password>p@ss&lt;&amp;&gt;</password>")))
                        .target()
                        .password());
        assertEquals(
                "",
                YcsbIvsNames.load(write("b.xml", mariadb("<password></password>")))
                        .target()
                        .password());
    }

    @Test
    void passwordEnvUsesTheProcessEnvironmentByDefault() throws Exception {
        // PATH is set in every environment that runs Maven; it stands in for a real password variable.
        Path file = write("env.xml", mariadb("<passwordEnv>PATH</passwordEnv>"));
        BenchmarkConfig c = ConfigLoader.load(
                file,
                YcsbIvsNames.BENCHMARK,
                YcsbIvsNames.TRANSACTION_TYPES,
                YcsbIvsNames.PARAMETERS,
                YcsbIvsNames.PHASE_PARAMETERS,
                TargetKinds::resolve);
        assertEquals(System.getenv("PATH"), c.target().password());
    }

    @Test
    void mysqlAcceptsBothSchemesAndMongoHasNoDriverOrIsolation() throws Exception {
        String mysql = minimal("")
                .replace("<type>SQLITE</type>", "<type>MYSQL</type>")
                .replace("jdbc:sqlite:t.db", "jdbc:mysql://db:3306/ivs");
        TargetConfig t = YcsbIvsNames.load(write("mysql.xml", mysql)).target();
        assertEquals("org.mariadb.jdbc.Driver", t.driver());
        assertEquals("TRANSACTION_REPEATABLE_READ", t.isolation());

        String mongo = minimal("")
                .replace("<type>SQLITE</type>", "<type>mongodb</type>")
                .replace("jdbc:sqlite:t.db", "mongodb+srv://cluster.example/ivsbench");
        TargetConfig m = YcsbIvsNames.load(write("mongo.xml", mongo)).target();
        assertEquals("MONGODB", m.type());
        assertNull(m.driver());
        assertNull(m.isolation());
    }

    @Test
    void weightsWithinOneHundredthOfAHundredAreAcceptedAndOthersAreNot() throws Exception {
        assertEquals(
                List.of(33.333, 33.333, 33.333),
                YcsbIvsNames.load(write("w1.xml", threeTypes("33.333,33.333,33.333")))
                        .phases()
                        .get(0)
                        .weights());
        ConfigException e =
                assertThrows(ConfigException.class, () -> YcsbIvsNames.load(write("w2.xml", threeTypes("50,49.98,0"))));
        assertEquals("works/work[1]/weights", e.path());
        assertTrue(e.getMessage().contains("sums to 99.98"), e.getMessage());
    }

    @Test
    void numbersInHexOrWithJavaSuffixesAreRejected() throws Exception {
        for (String rate : List.of("0x10", "100d", "1f", "Infinity", "")) {
            Path file =
                    write("r.xml", minimal("").replace("<time>5</time>", "<time>5</time><rate>" + rate + "</rate>"));
            ConfigException e = assertThrows(ConfigException.class, () -> YcsbIvsNames.load(file), rate);
            assertEquals("works/work[1]/rate", e.path());
            assertTrue(e.getMessage().contains("'" + rate + "'"), e.getMessage());
        }
    }

    @Test
    void missingFileDirectoryAndZeroByteFileNameTheFile() throws Exception {
        ConfigException missing = assertThrows(ConfigException.class, () -> YcsbIvsNames.load(dir.resolve("nope.xml")));
        assertEquals("nope.xml", missing.path());
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());

        Path folder = Files.createDirectories(dir.resolve("folder.xml"));
        ConfigException directory = assertThrows(ConfigException.class, () -> YcsbIvsNames.load(folder));
        assertEquals("folder.xml", directory.path());
        assertTrue(directory.getMessage().contains("is a directory"), directory.getMessage());

        Path empty = Files.writeString(dir.resolve("empty.xml"), "");
        ConfigException zero = assertThrows(ConfigException.class, () -> YcsbIvsNames.load(empty));
        assertEquals("empty.xml", zero.path());
        assertTrue(zero.getMessage().contains("is empty"), zero.getMessage());
    }

    @Test
    void anExternalEntityIsNeverRead() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET-CONTENT");
        Path file = write(
                "xxe.xml",
                "<?xml version=\"1.0\"?>\n<!DOCTYPE parameters [ <!ENTITY x SYSTEM \""
                        + secret.toUri() + "\"> ]>\n"
                        + minimal("")
                                .substring(minimal("").indexOf("<parameters>"))
                                .replace("<url>jdbc:sqlite:t.db</url>", "<url>jdbc:sqlite:&x;</url>"));
        ConfigException e = assertThrows(ConfigException.class, () -> YcsbIvsNames.load(file));
        assertEquals("xxe.xml", e.path());
        assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
        assertFalse(e.getMessage().contains("TOP-SECRET"), e.getMessage());
    }

    @Test
    void worksAndTransactionTypesAreOptionalExactlyWhenThereIsAnExperiment() throws Exception {
        String bare = "<parameters><type>SQLITE</type><url>jdbc:sqlite:t.db</url>%s</parameters>";
        BenchmarkConfig c =
                YcsbIvsNames.load(write("exp.xml", String.format(bare, "<experiment><epochs>2</epochs></experiment>")));
        assertEquals(List.of(), c.transactionTypes());
        assertEquals(List.of(), c.phases());
        assertEquals(Map.of("epochs", "2"), c.experiment());

        ConfigException types = assertThrows(
                ConfigException.class, () -> YcsbIvsNames.load(write("plain.xml", String.format(bare, ""))));
        assertEquals("transactiontypes", types.path());
        assertTrue(types.getMessage().contains("is required"), types.getMessage());
        ConfigException works = assertThrows(
                ConfigException.class,
                () -> YcsbIvsNames.load(write(
                        "types.xml",
                        String.format(
                                bare,
                                "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
                                        + "</transactiontypes>"))));
        assertEquals("works", works.path());
        assertTrue(works.getMessage().contains("is required"), works.getMessage());

        // Given anyway beside an experiment, they are still checked.
        ConfigException checked = assertThrows(
                ConfigException.class,
                () -> YcsbIvsNames.load(write(
                        "both.xml",
                        minimal("<experiment><epochs>2</epochs></experiment>")
                                .replace("<time>5</time>", "<time>0</time>"))));
        assertEquals("works/work[1]/time", checked.path());
    }

    @Test
    void aModuleMayNotDeclareAParameterThatShadowsAGenericElement() throws Exception {
        Path file = write("m.xml", minimal(""));
        assertThrows(
                IllegalArgumentException.class,
                () -> ConfigLoader.load(
                        file,
                        "x",
                        List.of("ReadRecord"),
                        Set.of("terminals"),
                        Set.of(),
                        TargetKinds::resolve,
                        k -> null));
        assertThrows(
                IllegalArgumentException.class,
                () -> ConfigLoader.load(
                        file, "x", List.of("ReadRecord"), Set.of(), Set.of("rate"), TargetKinds::resolve, k -> null));
    }

    private Path write(String name, String xml) throws IOException {
        return Files.writeString(dir.resolve(name), xml, StandardCharsets.UTF_8);
    }

    private static String minimal(String extra) {
        return "<?xml version=\"1.0\"?>\n<parameters>\n<type>SQLITE</type>\n<url>jdbc:sqlite:t.db</url>\n"
                + "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>\n"
                + "<works><work><time>5</time></work></works>\n" + extra + "\n</parameters>\n";
    }

    private static String mariadb(String credentials) {
        return minimal("<username>ivs</username>" + credentials)
                .replace("<type>SQLITE</type>", "<type>MARIADB</type>")
                .replace("jdbc:sqlite:t.db", "jdbc:mariadb://127.0.0.1:3306/ivsbench");
    }

    private static String threeTypes(String weights) {
        return minimal("")
                .replace(
                        "<transactiontype><name>ReadRecord</name></transactiontype>",
                        "<transactiontype><name>ReadRecord</name></transactiontype>"
                                + "<transactiontype><name>UpdateRecord</name></transactiontype>"
                                + "<transactiontype><name>InsertRecord</name></transactiontype>")
                .replace("<time>5</time>", "<time>5</time><weights>" + weights + "</weights>");
    }
}
