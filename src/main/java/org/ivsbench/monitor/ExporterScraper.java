package org.ivsbench.monitor;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

/**
 * Fetches one exporter's /metrics page and parses it ({@link ExpositionParser}). http and https (the JDK's
 * trust store: a private CA goes in with {@code -Djavax.net.ssl.trustStore}); basic auth when a user is given,
 * which an exporter's {@code --web.config.file} can require. Never shows the password.
 */
final class ExporterScraper {
    private final URI uri;
    private final String authorization; // null without a user
    private final HttpClient http;
    private final Duration timeout;

    ExporterScraper(String url, String user, String password, Duration timeout) {
        this.uri = URI.create(url);
        this.authorization = user == null
                ? null
                : "Basic "
                        + Base64.getEncoder()
                                .encodeToString((user + ":" + (password == null ? "" : password))
                                        .getBytes(StandardCharsets.UTF_8));
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** The samples now; an exporter that answers other than 200 is an IOException naming the status. */
    List<ExpositionParser.Series> scrape() throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Accept", "text/plain;version=0.0.4")
                .GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> response =
                http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (response.statusCode() != 200) {
            throw new IOException(uri + " answered HTTP " + response.statusCode());
        }
        return ExpositionParser.parse(response.body());
    }

    @Override
    public String toString() {
        return uri.toString();
    }
}
