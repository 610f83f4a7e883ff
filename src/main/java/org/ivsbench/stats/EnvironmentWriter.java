package org.ivsbench.stats;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * environment.json: the database's own facts, the JVM, the OS and the host the client ran on; {@code shrunk}, only
 * for a run made with {@code --shrink}, lists what was shrunk ("recordcount 1000 -> 100"): its figures describe a
 * smoke-test size, not the configured one.
 */
public final class EnvironmentWriter {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private EnvironmentWriter() {}

    /** The tool's version from the jar's manifest ("dev" when run from classes). */
    public static String toolVersion() {
        String v = EnvironmentWriter.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    public static void write(
            Path file, Map<String, Object> database, String toolVersion, List<String> commandLine, List<String> shrunk)
            throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        if (!shrunk.isEmpty()) {
            root.put("shrunk", shrunk);
        }
        root.put("database", database);
        Map<String, Object> jvm = new LinkedHashMap<>();
        jvm.put("version", System.getProperty("java.version"));
        jvm.put("vendor", System.getProperty("java.vendor"));
        jvm.put("vm", System.getProperty("java.vm.name"));
        jvm.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
        jvm.put("arguments", ManagementFactory.getRuntimeMXBean().getInputArguments());
        root.put("jvm", jvm);
        Map<String, Object> os = new LinkedHashMap<>();
        os.put("name", System.getProperty("os.name"));
        os.put("version", System.getProperty("os.version"));
        os.put("arch", System.getProperty("os.arch"));
        os.put("processors", Runtime.getRuntime().availableProcessors());
        root.put("os", os);
        Map<String, Object> host = new LinkedHashMap<>();
        try {
            host.put("name", InetAddress.getLocalHost().getHostName());
        } catch (IOException e) {
            host.put("name", null);
        }
        root.put("host", host);
        Map<String, Object> client = new LinkedHashMap<>();
        client.put("toolVersion", toolVersion);
        client.put("commandLine", commandLine);
        root.put("client", client);
        JSON.writeValue(file.toFile(), root);
    }
}
