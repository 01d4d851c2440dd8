package dev.moraine.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moraine.core.kv.KvUnavailableException;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.store.s3.S3Fixture;
import dev.moraine.store.s3.S3FixtureExtension;
import dev.moraine.store.s3.S3Location;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * S3 credentials never appear in an exception text or a forwarded native log record. The stores
 * here are configured with recognisable fake keys and made to fail (refused by S3Proxy, or a
 * loopback port where nothing listens), with every native log level forwarded.
 */
@ExtendWith(S3FixtureExtension.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CredentialsStayOutOfTextTest {
  private static final String ACCESS_KEY = "MORAINEFAKEACCESSKEY7";
  private static final String SECRET_KEY = "moraine/fake+secret/Key0123456789abcdefXYZ";

  private static S3Fixture fixture;

  private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
  private final Consumer<String> tap = lines::add;

  @BeforeAll
  static void useFixture(S3Fixture shared) {
    fixture = shared;
  }

  @BeforeEach
  void forwardEveryLevel() {
    NativeLog.setLevel(5);
    NativeLog.addTap(tap);
  }

  @AfterEach
  void restoreLevel() {
    NativeLog.removeTap(tap);
    NativeLog.setLevel(NativeLog.configuredLevel());
  }

  @Test
  void wrongKeysOnS3ProxyLeaveNoTrace() throws Exception {
    S3Location location = fixture.newLocation("wrong-keys");
    ObjectStoreSpec spec =
        ObjectStoreSpec.s3(
            location.endpoint().toString(),
            location.bucket(),
            location.prefix(),
            location.region(),
            ACCESS_KEY,
            SECRET_KEY,
            location.allowHttp());
    List<String> texts = failToOpen(spec);
    assertClean(texts);
  }

  @Test
  void aConfiguredCredentialIsMaskedInLogRecordsAndExceptionTexts() throws Exception {
    // Configuring the store is what makes the binding know the keys; no request is needed.
    S3Location location = fixture.newLocation("masked");
    ObjectStoreSpec spec =
        ObjectStoreSpec.s3(
            location.endpoint().toString(),
            location.bucket(),
            location.prefix(),
            location.region(),
            ACCESS_KEY,
            SECRET_KEY,
            location.allowHttp());
    long handle = ObjectStoreHandles.open(spec);
    ObjectStoreHandles.free(handle);

    String text = "key " + ACCESS_KEY + " secret " + SECRET_KEY + " end";
    KvUnavailableException thrown =
        assertThrows(KvUnavailableException.class, () -> TestHooks.logAndFail(text));
    assertEquals("key [redacted] secret [redacted] end", thrown.getMessage());
    String expected = "WARN moraine_store_native::test_hook key [redacted] secret [redacted] end";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!lines.contains(expected)) {
      if (System.nanoTime() > deadline) {
        fail("the masked record never arrived");
      }
      Thread.sleep(20);
    }
  }

  @Test
  void anUnreachableEndpointLeavesNoTrace() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    ObjectStoreSpec spec =
        ObjectStoreSpec.s3(
            "http://127.0.0.1:" + port, "bucket", "prefix", null, ACCESS_KEY, SECRET_KEY, true);
    assertClean(failToOpen(spec));
  }

  /**
   * Opens a writer and a reader on {@code spec}, both of which must fail, and returns every text
   * that reached Java: the specs' and configs' own strings, the exceptions (with their causes and
   * stack traces), and the log records forwarded meanwhile.
   */
  private List<String> failToOpen(ObjectStoreSpec spec) throws Exception {
    StoreConfig config =
        StoreConfig.of(spec, "store")
            .withSettings(StoreSettings.defaults().withObjectStoreMaxRetries(1));
    List<String> texts = new ArrayList<>();
    texts.add(spec.toString());
    texts.add(config.toString());
    SlateStoreProvider provider = new SlateStoreProvider(config);
    KvUnavailableException writer =
        assertThrows(KvUnavailableException.class, provider::openWriter);
    KvUnavailableException reader =
        assertThrows(
            KvUnavailableException.class, () -> provider.openReader(ReaderMode.followLatest()));
    texts.add(describe(writer));
    texts.add(describe(reader));
    awaitLogs();
    texts.addAll(lines);
    return texts;
  }

  /**
   * Waits for the first record, then one more second for the rest of the failure's records (the
   * drainer polls every 200 ms). Not a check of timing: only how long records are collected.
   */
  private void awaitLogs() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (lines.isEmpty()) {
      if (System.nanoTime() > deadline) {
        fail("no native log record arrived while the store failed");
      }
      Thread.sleep(50);
    }
    Thread.sleep(1000);
  }

  private static String describe(Throwable thrown) {
    java.io.StringWriter out = new java.io.StringWriter();
    thrown.printStackTrace(new java.io.PrintWriter(out));
    return out.toString();
  }

  private static void assertClean(List<String> texts) throws IOException {
    for (String text : texts) {
      assertFalse(text.contains(ACCESS_KEY), () -> "the access key leaked: " + text);
      assertFalse(text.contains(SECRET_KEY), () -> "the secret key leaked: " + text);
    }
    assertTrue(texts.size() > 1, "texts were captured");
  }
}
