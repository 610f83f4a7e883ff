package org.ivsbench.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The JDK's keytool, run for a test: key stores and trust stores made fresh in a temporary folder. */
public final class KeyTool {
    private KeyTool() {}

    /** A PKCS12 key store at {@code store} with one EC key for 127.0.0.1 (alias {@code alias}), valid two days. */
    public static void keyPair(Path store, String password, String alias) throws IOException, InterruptedException {
        run(
                "-genkeypair",
                "-alias",
                alias,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "SAN=ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                password,
                "-keypass",
                password);
    }

    /** A PKCS12 trust store at {@code trust} holding the certificate of {@code alias} in {@code store}. */
    public static void trust(Path store, String password, String alias, Path trust, String trustPassword)
            throws IOException, InterruptedException {
        Path cert = trust.resolveSibling(trust.getFileName() + "." + alias + ".crt");
        run(
                "-exportcert",
                "-alias",
                alias,
                "-keystore",
                store.toString(),
                "-storepass",
                password,
                "-file",
                cert.toString());
        run(
                "-importcert",
                "-noprompt",
                "-alias",
                alias,
                "-file",
                cert.toString(),
                "-storetype",
                "PKCS12",
                "-keystore",
                trust.toString(),
                "-storepass",
                trustPassword);
    }

    private static void run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("keytool " + args[0] + " failed: " + output);
        }
    }
}
