package dev.moraine.store.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The object store under the S3 suite must honour the conditional writes SlateDB relies on for its
 * manifest: create-only ({@code If-None-Match: *}) and compare-and-swap ({@code If-Match}),
 * refusing with 412 Precondition Failed. Checked here with plain signed HTTP requests, so a failure
 * points at the endpoint, not at the store binding.
 */
@ExtendWith(S3FixtureExtension.class)
class S3ConditionalWriteTest {

  @Test
  void embeddedFixtureListensOnLoopbackAndHandsOutFreshLocations(S3Fixture fixture) {
    if (fixture.isEmbedded()) {
      assertEquals("127.0.0.1", fixture.runLocation().endpoint().getHost());
    }
    assertNotEquals(fixture.newLocation("same").prefix(), fixture.newLocation("same").prefix());
  }

  @Test
  void createOnlyPutRefusesAnExistingObject(S3Location where) {
    S3HttpClient s3 = new S3HttpClient(where);
    String name = "manifest/00000000000000000001.manifest";

    HttpResponse<byte[]> first = s3.put(name, bytes("one"), Map.of("If-None-Match", "*"));
    assertEquals(200, first.statusCode(), () -> describe(first));

    HttpResponse<byte[]> second = s3.put(name, bytes("two"), Map.of("If-None-Match", "*"));
    assertEquals(412, second.statusCode(), () -> describe(second));

    HttpResponse<byte[]> read = s3.get(name);
    assertEquals(200, read.statusCode(), () -> describe(read));
    assertArrayEquals(bytes("one"), read.body(), "the refused PUT changed nothing");
  }

  @Test
  void ifMatchPutSwapsOnlyTheExpectedVersion(S3Location where) {
    S3HttpClient s3 = new S3HttpClient(where);
    String name = "manifest/cas";

    HttpResponse<byte[]> created = s3.put(name, bytes("v1"), Map.of("If-None-Match", "*"));
    assertEquals(200, created.statusCode(), () -> describe(created));
    String etag1 = etag(created);

    HttpResponse<byte[]> swapped = s3.put(name, bytes("v2"), Map.of("If-Match", etag1));
    assertEquals(200, swapped.statusCode(), () -> describe(swapped));
    String etag2 = etag(swapped);
    assertNotEquals(etag1, etag2);

    HttpResponse<byte[]> stale = s3.put(name, bytes("v3"), Map.of("If-Match", etag1));
    assertEquals(412, stale.statusCode(), () -> describe(stale));

    HttpResponse<byte[]> read = s3.get(name);
    assertEquals(200, read.statusCode(), () -> describe(read));
    assertArrayEquals(bytes("v2"), read.body(), "the stale swap changed nothing");
    assertEquals(etag2, etag(read));
  }

  @Test
  void ifMatchOnAMissingObjectWritesNothing(S3Location where) {
    S3HttpClient s3 = new S3HttpClient(where);
    String name = "manifest/absent";
    HttpResponse<byte[]> put =
        s3.put(name, bytes("x"), Map.of("If-Match", "\"0123456789abcdef0123456789abcdef\""));
    // AWS answers 404 NoSuchKey here, others 412; either way nothing may be written.
    assertNotEquals(200, put.statusCode(), () -> describe(put));
    HttpResponse<byte[]> read = s3.get(name);
    assertEquals(404, read.statusCode(), () -> describe(read));
  }

  @Test
  void listingSeesExactlyTheLocationsObjects(S3Location where) {
    S3HttpClient s3 = new S3HttpClient(where);
    for (String name : List.of("b/2", "a/1", "a/0")) {
      HttpResponse<byte[]> put = s3.put(name, bytes(name), Map.of());
      assertEquals(200, put.statusCode(), () -> describe(put));
    }
    assertEquals(List.of("a/0", "a/1", "b/2"), s3.list());
    assertEquals(List.of(), new S3HttpClient(where.child("empty")).list());
  }

  @Test
  void unsignedRequestsAreRefused(S3Location where) throws Exception {
    HttpResponse<byte[]> anonymous =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(where.objectUri("anonymous"))
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(bytes("x")))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(403, anonymous.statusCode(), () -> describe(anonymous));
  }

  private static String etag(HttpResponse<?> response) {
    String etag = response.headers().firstValue("ETag").orElse(null);
    assertNotNull(etag, "response has an ETag");
    return etag;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String describe(HttpResponse<byte[]> response) {
    return response.statusCode() + " " + new String(response.body(), StandardCharsets.UTF_8);
  }
}
