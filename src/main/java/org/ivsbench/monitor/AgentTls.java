package org.ivsbench.monitor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.Collections;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS for the monitor agent, from the JDK alone: the agent serves HTTPS with the user's key store (PKCS12 or JKS,
 * as keytool writes them), the client trusts the certificates of a trust store or, without one, the JDK's own.
 * Errors name the file and what is wrong with it, never the password.
 */
public final class AgentTls {
    private AgentTls() {}

    /** The agent's side: its key (the store's only key entry, or the one whose password is the store's). */
    public static SSLContext serverContext(Path keyStore, char[] password) {
        KeyStore store = load(keyStore, password, "key store");
        try {
            boolean anyKey = false;
            for (String alias : Collections.list(store.aliases())) {
                anyKey |= store.isKeyEntry(alias);
            }
            if (!anyKey) {
                throw new IllegalArgumentException(
                        "key store '" + keyStore + "' holds no private key (keytool -genkeypair)");
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "key store '" + keyStore + "': its key cannot be used ("
                            + e.getClass().getSimpleName() + "; the key's password must be the store's)",
                    e);
        }
    }

    /** The client's side: trusts the certificates in {@code trustStore}. */
    public static SSLContext clientContext(Path trustStore, char[] password) {
        KeyStore store = load(trustStore, password, "trust store");
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "trust store '" + trustStore + "' cannot be used: "
                            + e.getClass().getSimpleName(),
                    e);
        }
    }

    /** The client's side without a trust store: the JDK's default trust (cacerts, -Djavax.net.ssl.trustStore). */
    public static SSLContext defaultClientContext() {
        try {
            return SSLContext.getDefault();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK's default TLS context is unavailable: " + e, e);
        }
    }

    private static KeyStore load(Path file, char[] password, String what) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(what + " '" + file + "' is not a readable file");
        }
        try {
            return KeyStore.getInstance(file.toFile(), password); // PKCS12 or JKS, told by content
        } catch (IOException e) {
            // The JDK reports a wrong password as an IOException caused by UnrecoverableKeyException.
            String cause = e.getCause() instanceof UnrecoverableKeyException
                    ? "wrong password"
                    : e.getClass().getSimpleName();
            throw new IllegalArgumentException(what + " '" + file + "' cannot be opened: " + cause, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    what + " '" + file + "' is not a PKCS12 or JKS store: "
                            + e.getClass().getSimpleName(),
                    e);
        }
    }
}
