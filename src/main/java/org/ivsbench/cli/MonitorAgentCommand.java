package org.ivsbench.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLContext;

import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import org.ivsbench.monitor.AgentTls;
import org.ivsbench.monitor.MonitorAgent;
import org.ivsbench.monitor.ProcSampler;
import org.ivsbench.monitor.ProcessLocator;

/** {@code java -jar benchbase.jar monitor-agent --listen 127.0.0.1:PORT [--pid-file F | --process-name N]}. */
@Command(
        name = "monitor-agent",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Serve this host's resource samples to a benchmark client on another host (GET /time,"
                    + " GET /samples?since=MS); runs until stopped.",
            "Plain HTTP unless --keystore is given (then HTTPS only); without --secret-file anyone who reaches the"
                    + " port reads the samples, and over plain HTTP the secret travels in clear."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped", "1:cannot listen", "2:bad option"})
final class MonitorAgentCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--listen",
            required = true,
            paramLabel = "HOST:PORT",
            converter = HostPort.class,
            description = "Address to serve on (IPv6: [::1]:9100; port 0 picks a free one).")
    InetSocketAddress listen;

    @Option(
            names = "--pid-file",
            paramLabel = "FILE",
            description = "The database server's pid file: its proc.*" + " columns are sampled too.")
    Path pidFile;

    @Option(names = "--process-name", paramLabel = "NAME", description = "As --pid-file, found by process name.")
    String processName;

    @Option(
            names = "--interval",
            paramLabel = "MS",
            defaultValue = "1000",
            description = "Sampling interval in milliseconds (default: ${DEFAULT-VALUE}).")
    long intervalMs;

    @Option(
            names = "--retention",
            paramLabel = "SECONDS",
            defaultValue = "3600",
            description = "How long samples are kept for a client that polls late (default: ${DEFAULT-VALUE}).")
    long retentionSeconds;

    @Option(
            names = "--secret-file",
            paramLabel = "FILE",
            description = "Answer only requests carrying the file's" + " first line as 'Authorization: Bearer'.")
    Path secretFile;

    @Option(
            names = "--keystore",
            paramLabel = "FILE",
            description = "Serve HTTPS with the key in this PKCS12 or JKS key store (keytool -genkeypair).")
    Path keyStore;

    @Option(
            names = "--keystore-password-file",
            paramLabel = "FILE",
            description = "The key store's password: the file's first line (required with --keystore).")
    Path keyStorePasswordFile;

    @Override
    public Integer call() {
        if (pidFile != null && processName != null) {
            throw usage("--pid-file '" + pidFile + "' and --process-name '" + processName + "': give one, not both");
        }
        if (intervalMs <= 0) {
            throw usage("--interval: '" + intervalMs + "' must be a positive number of milliseconds");
        }
        if (retentionSeconds <= 0) {
            throw usage("--retention: '" + retentionSeconds + "' must be a positive number of seconds");
        }
        String secret = secretFile == null ? null : readSecret(secretFile, "--secret-file", "the secret");
        SSLContext tls = null;
        if (keyStore != null || keyStorePasswordFile != null) {
            if (keyStore == null || keyStorePasswordFile == null) {
                throw usage(
                        keyStore == null
                                ? "--keystore-password-file '" + keyStorePasswordFile + "' without --keystore"
                                : "--keystore '" + keyStore
                                        + "' without --keystore-password-file (the store's password)");
            }
            char[] password = readSecret(keyStorePasswordFile, "--keystore-password-file", "the password")
                    .toCharArray();
            try {
                tls = AgentTls.serverContext(keyStore, password);
            } catch (IllegalArgumentException e) {
                throw usage("--keystore: " + e.getMessage());
            }
        }
        ProcessLocator process = ProcessLocator.of(pidFile == null ? null : pidFile.toString(), processName);
        return MonitorAgent.serve(
                listen,
                ProcSampler.local(process),
                intervalMs,
                Duration.ofSeconds(retentionSeconds),
                secret,
                tls,
                System.out,
                System.err);
    }

    /** The first line of the file; the message names the option and the file, never its content. */
    private String readSecret(Path file, String option, String what) {
        String line;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            line = r.readLine();
        } catch (IOException | RuntimeException e) {
            throw usage(option + ": cannot read '" + file + "': " + e.getClass().getSimpleName());
        }
        if (line == null || line.isEmpty()) {
            throw usage(option + ": '" + file + "' is empty (its first line is " + what + ")");
        }
        return line;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** HOST:PORT (IPv6 in brackets), port 0..65535. */
    static final class HostPort implements ITypeConverter<InetSocketAddress> {
        @Override
        public InetSocketAddress convert(String value) {
            URI uri;
            try {
                uri = URI.create("tcp://" + value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not HOST:PORT");
            }
            if (uri.getHost() == null
                    || uri.getPort() < 0
                    || uri.getPort() > 65535
                    || uri.getPath() == null
                    || !uri.getPath().isEmpty()) {
                throw new TypeConversionException("'" + value + "' is not HOST:PORT");
            }
            return new InetSocketAddress(uri.getHost(), uri.getPort());
        }
    }
}
