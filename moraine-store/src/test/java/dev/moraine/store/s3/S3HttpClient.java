package dev.moraine.store.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A few signed S3 calls over {@link HttpClient}, scoped to one {@link S3Location}: enough for tests
 * to look at the objects a store wrote and to probe the endpoint's conditional writes.
 */
final class S3HttpClient {
  private static final Pattern KEY = Pattern.compile("<Key>([^<]*)</Key>");
  private static final Pattern NEXT_TOKEN =
      Pattern.compile("<NextContinuationToken>([^<]*)</NextContinuationToken>");

  private final S3Location location;
  private final S3Signer signer;
  private final HttpClient http;

  S3HttpClient(S3Location location) {
    this.location = location;
    this.signer = new S3Signer(location);
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  }

  /** PUT of {@code name} under the location, with extra headers (signed too). */
  HttpResponse<byte[]> put(String name, byte[] body, Map<String, String> headers) {
    return send(signer.request("PUT", location.objectUri(name), body, headers));
  }

  /** PUT of the location's bucket: creates it. */
  HttpResponse<byte[]> createBucket() {
    String base = location.endpoint().toString().replaceAll("/+$", "");
    return send(
        signer.request(
            "PUT", java.net.URI.create(base + "/" + location.bucket()), new byte[0], Map.of()));
  }

  /** GET of {@code name} under the location. */
  HttpResponse<byte[]> get(String name) {
    return send(signer.request("GET", location.objectUri(name), new byte[0], Map.of()));
  }

  /**
   * Every object key under the location, relative to it (without the location's prefix and its
   * slash), in the order the endpoint lists them.
   */
  List<String> list() {
    String base = location.endpoint().toString();
    if (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    String prefix = location.prefix() + "/";
    List<String> keys = new ArrayList<>();
    String token = null;
    do {
      String query =
          "list-type=2&prefix="
              + S3Signer.encodeQueryValue(prefix)
              + (token == null ? "" : "&continuation-token=" + S3Signer.encodeQueryValue(token));
      URI uri = URI.create(base + "/" + location.bucket() + "?" + query);
      HttpResponse<byte[]> response = send(signer.request("GET", uri, new byte[0], Map.of()));
      String xml = new String(response.body(), StandardCharsets.UTF_8);
      if (response.statusCode() != 200) {
        throw new IllegalStateException("listing failed: " + response.statusCode() + " " + xml);
      }
      Matcher m = KEY.matcher(xml);
      while (m.find()) {
        String key = unescapeXml(m.group(1));
        keys.add(key.startsWith(prefix) ? key.substring(prefix.length()) : key);
      }
      Matcher next = NEXT_TOKEN.matcher(xml);
      token = next.find() ? unescapeXml(next.group(1)) : null;
    } while (token != null);
    return keys;
  }

  private HttpResponse<byte[]> send(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static String unescapeXml(String s) {
    return s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&");
  }
}
