package dev.moraine.store.s3;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Builds AWS Signature Version 4 signed path-style requests for {@link java.net.http.HttpClient}:
 * just enough S3 for the tests to talk to the endpoint directly, without an SDK. The payload is
 * hashed in full, so bodies must be small.
 */
final class S3Signer {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT);
  private static final HexFormat HEX = HexFormat.of();

  private final S3Location location;
  private final Clock clock;

  S3Signer(S3Location location) {
    this(location, Clock.systemUTC());
  }

  S3Signer(S3Location location, Clock clock) {
    this.location = location;
    this.clock = clock;
  }

  /**
   * A signed request.
   *
   * @param method HTTP method
   * @param uri the full path-style URI; query values encoded with {@link #encodeQueryValue}
   * @param body the payload, empty for none
   * @param extraHeaders further headers to send and sign (names in any case)
   */
  HttpRequest request(String method, URI uri, byte[] body, Map<String, String> extraHeaders) {
    ZonedDateTime now = ZonedDateTime.now(clock).withZoneSameInstant(ZoneOffset.UTC);
    String amzDate = STAMP.format(now);
    String day = amzDate.substring(0, 8);
    String payloadHash = HEX.formatHex(sha256(body));

    TreeMap<String, String> signed = new TreeMap<>();
    signed.put("host", hostHeader(uri));
    signed.put("x-amz-content-sha256", payloadHash);
    signed.put("x-amz-date", amzDate);
    extraHeaders.forEach((k, v) -> signed.put(k.toLowerCase(Locale.ROOT), v.trim()));

    StringBuilder canonicalHeaders = new StringBuilder();
    signed.forEach((k, v) -> canonicalHeaders.append(k).append(':').append(v).append('\n'));
    String signedHeaders = String.join(";", signed.keySet());
    String canonicalRequest =
        method
            + "\n"
            + (uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
            + "\n"
            + canonicalQuery(uri.getRawQuery())
            + "\n"
            + canonicalHeaders
            + "\n"
            + signedHeaders
            + "\n"
            + payloadHash;

    String scope = day + "/" + location.region() + "/s3/aws4_request";
    String toSign =
        "AWS4-HMAC-SHA256\n"
            + amzDate
            + "\n"
            + scope
            + "\n"
            + HEX.formatHex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
    byte[] key = hmac(("AWS4" + location.secretKey()).getBytes(StandardCharsets.UTF_8), day);
    key = hmac(key, location.region());
    key = hmac(key, "s3");
    key = hmac(key, "aws4_request");
    String signature = HEX.formatHex(hmac(key, toSign));

    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .method(
                method,
                body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    signed.forEach(
        (k, v) -> {
          if (!k.equals("host")) {
            b.header(k, v);
          }
        });
    b.header(
        "Authorization",
        "AWS4-HMAC-SHA256 Credential="
            + location.accessKey()
            + "/"
            + scope
            + ", SignedHeaders="
            + signedHeaders
            + ", Signature="
            + signature);
    return b.build();
  }

  /**
   * The query string in canonical form: parameters sorted by name, each name and value
   * percent-encoded, {@code =} always present. Expects the raw query to be encoded already with
   * {@link #encodeQueryValue(String)}.
   */
  private static String canonicalQuery(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return "";
    }
    TreeMap<String, String> params = new TreeMap<>();
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      params.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
    }
    StringBuilder sb = new StringBuilder();
    params.forEach(
        (k, v) -> {
          if (sb.length() > 0) {
            sb.append('&');
          }
          sb.append(k).append('=').append(v);
        });
    return sb.toString();
  }

  /** Percent-encodes a query parameter value (slashes included). */
  static String encodeQueryValue(String value) {
    return encodePath(value).replace("/", "%2F");
  }

  /** Percent-encodes an object key for a URI path, keeping the slashes. */
  static String encodePath(String key) {
    StringBuilder sb = new StringBuilder();
    for (byte x : key.getBytes(StandardCharsets.UTF_8)) {
      int c = x & 0xFF;
      boolean unreserved =
          (c >= 'A' && c <= 'Z')
              || (c >= 'a' && c <= 'z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_'
              || c == '.'
              || c == '~'
              || c == '/';
      if (unreserved) {
        sb.append((char) c);
      } else {
        sb.append('%').append(HEX.withUpperCase().toHexDigits((byte) c));
      }
    }
    return sb.toString();
  }

  /** The Host header java.net.http sends: the port only when it is not the scheme's default. */
  private static String hostHeader(URI uri) {
    int port = uri.getPort();
    boolean defaultPort =
        port == -1
            || ("http".equalsIgnoreCase(uri.getScheme()) && port == 80)
            || ("https".equalsIgnoreCase(uri.getScheme()) && port == 443);
    return defaultPort ? uri.getHost() : uri.getHost() + ":" + port;
  }

  private static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
