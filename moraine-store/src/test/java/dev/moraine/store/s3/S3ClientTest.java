package dev.moraine.store.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.kv.KvInvalidArgumentException;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvUnavailableException;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.S3Credentials;
import dev.moraine.store.S3Timeouts;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The S3 client's own behaviour: its timeouts against endpoints that never answer, and each way of
 * authenticating against a server that checks signatures (the embedded S3Proxy) or one that does
 * not.
 */
@ExtendWith(S3FixtureExtension.class)
class S3ClientTest {
  /** Short timeouts and one SlateDB retry, so a dead endpoint fails within a few seconds. */
  private static final S3Timeouts SHORT =
      new S3Timeouts(Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5));

  private static final StoreSettings ONE_RETRY =
      StoreSettings.defaults().withObjectStoreMaxRetries(1);

  /**
   * The bound a failing open must meet: 2 SlateDB attempts x 3 client attempts x 1 s, plus backoff,
   * is about 8 s; the rest is slack for a loaded machine. Without the timeouts it would be minutes.
   */
  private static final Duration BOUND = Duration.ofSeconds(45);

  private static S3Fixture fixture;

  @BeforeAll
  static void useFixture(S3Fixture shared) {
    fixture = shared;
  }

  private static ObjectStoreSpec.S3 deadEndpoint(int port) {
    return ObjectStoreSpec.s3(
            "http://127.0.0.1:" + port,
            "bucket",
            null,
            "us-east-1",
            S3Credentials.ofKeys("id", "secret"),
            true)
        .withTimeouts(SHORT);
  }

  /** Opens a writer on {@code spec}; asserts it fails with Unavailable within {@link #BOUND}. */
  private static void assertOpenFailsInTime(ObjectStoreSpec spec) {
    SlateStoreProvider provider =
        new SlateStoreProvider(StoreConfig.of(spec, "db").withSettings(ONE_RETRY));
    long start = System.nanoTime();
    KvUnavailableException e =
        assertThrows(
            KvUnavailableException.class,
            () -> {
              try (KvStore store = provider.openWriter()) {
                store.write(new WriteBatch().put(bytes("k"), bytes("v")));
              }
            });
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertTrue(took.compareTo(BOUND) < 0, () -> "took " + took + ": " + e);
  }

  @Test
  void anEndpointThatAcceptsAndNeverAnswersFailsWithinItsTimeouts() throws Exception {
    List<Socket> held = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    held.add(silent.accept()); // kept open, never read, never answered
                  }
                } catch (IOException closed) {
                  // the server socket was closed: the test is over
                }
              },
              "silent-s3");
      acceptor.setDaemon(true);
      acceptor.start();
      assertOpenFailsInTime(deadEndpoint(silent.getLocalPort()));
      assertFalse(held.isEmpty(), "the client never connected, so the request timeout was not hit");
    } finally {
      for (Socket s : held) {
        s.close();
      }
    }
  }

  @Test
  void anEndpointThatNeverAcceptsFailsWithinItsConnectTimeout() throws Exception {
    List<Socket> fillers = new ArrayList<>();
    try (ServerSocket full = new ServerSocket()) {
      // Backlog 1 and no accept(): once the accept queue is full, the kernel drops further SYNs,
      // so a connect neither succeeds nor is refused; it hangs until the client gives up.
      full.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
      boolean saturated = false;
      for (int i = 0; i < 64 && !saturated; i++) {
        Socket s = new Socket();
        try {
          s.connect(full.getLocalSocketAddress(), 200);
          fillers.add(s);
        } catch (SocketTimeoutException e) {
          s.close();
          saturated = true;
        }
      }
      assertTrue(saturated, "the listen queue never filled up, so connects would not hang");
      assertOpenFailsInTime(deadEndpoint(full.getLocalPort()));
    } finally {
      for (Socket s : fillers) {
        s.close();
      }
    }
  }

  @Test
  void staticKeysAreUsedAndWrongOnesAreRefused() {
    S3Location location = fixture.newLocation("static-keys");
    ObjectStoreSpec.S3 right =
        ObjectStoreSpec.s3(
            location.endpoint().toString(),
            location.bucket(),
            location.prefix(),
            location.region(),
            S3Credentials.ofKeys(location.accessKey(), location.secretKey()),
            location.allowHttp());
    roundTrip(right);
    assertOpenFailsInTime(
        right.withCredentials(S3Credentials.ofKeys(location.accessKey(), "not-the-secret")));
  }

  @Test
  void anonymousRequestsAreUnsigned() {
    // The embedded S3Proxy checks signatures, so unsigned requests are refused there.
    S3Location location = fixture.newLocation("anonymous");
    assertOpenFailsInTime(
        ObjectStoreSpec.s3(
                location.endpoint().toString(),
                location.bucket(),
                location.prefix(),
                location.region(),
                S3Credentials.anonymous(),
                location.allowHttp())
            .withTimeouts(SHORT));
  }

  @Test
  void anonymousAccessWorksOnAServerWithoutAuthentication() {
    try (S3Fixture open = S3Fixture.embeddedWithoutAuthentication()) {
      S3Location location = open.newLocation("anonymous-open");
      roundTrip(
          ObjectStoreSpec.s3(
              location.endpoint().toString(),
              location.bucket(),
              location.prefix(),
              location.region(),
              S3Credentials.anonymous(),
              location.allowHttp()));
    }
  }

  @Test
  void theDefaultChainReadsTheSharedCredentialsFile() {
    // The pom points AWS_SHARED_CREDENTIALS_FILE at a file whose default profile holds the
    // embedded proxy's keys, and clears the key variables, so only the profile can sign.
    assertNotNull(System.getenv("AWS_SHARED_CREDENTIALS_FILE"), "set by the pom");
    S3Location location = fixture.newLocation("default-chain");
    roundTrip(
        ObjectStoreSpec.s3(
            location.endpoint().toString(),
            location.bucket(),
            location.prefix(),
            location.region(),
            S3Credentials.defaultChain(),
            location.allowHttp()));
  }

  @Test
  void credentialsAndTimeoutsAreValidated() {
    assertThrows(KvInvalidArgumentException.class, () -> S3Credentials.ofKeys("id", null));
    assertThrows(KvInvalidArgumentException.class, () -> S3Credentials.ofKeys("", "secret"));
    assertThrows(KvInvalidArgumentException.class, () -> S3Credentials.ofKeys("id", "s", ""));
    assertThrows(
        KvInvalidArgumentException.class,
        () -> ObjectStoreSpec.s3("http://x", "b", null, null, "id", null, true));
    assertThrows(
        KvInvalidArgumentException.class,
        () -> ObjectStoreSpec.s3("http://x", "b", null, null, (S3Credentials) null, true));
    assertThrows(
        KvInvalidArgumentException.class, () -> S3Timeouts.DEFAULTS.withConnect(Duration.ZERO));
    assertThrows(KvInvalidArgumentException.class, () -> S3Timeouts.DEFAULTS.withRequest(null));
    assertThrows(
        KvInvalidArgumentException.class,
        () -> S3Timeouts.DEFAULTS.withPoolIdle(Duration.ofDays(2)));
    assertEquals(
        new S3Credentials.DefaultChain(),
        ObjectStoreSpec.s3("http://x", "b", null, null, null, null, true).credentials());
  }

  @Test
  void toStringNeverShowsKeysOrTokens() {
    ObjectStoreSpec.S3 spec =
        ObjectStoreSpec.s3(
            "http://x",
            "b",
            "p",
            "r",
            S3Credentials.ofKeys("AKIDVISIBLE", "SECRETVISIBLE", "TOKENVISIBLE"),
            true);
    String text = spec.toString();
    assertFalse(text.contains("AKIDVISIBLE"), text);
    assertFalse(text.contains("SECRETVISIBLE"), text);
    assertFalse(text.contains("TOKENVISIBLE"), text);
    assertTrue(text.contains("Static[") && text.contains("bucket=b"), text);
  }

  private static void roundTrip(ObjectStoreSpec spec) {
    SlateStoreProvider provider = new SlateStoreProvider(StoreConfig.of(spec, "db"));
    try (KvStore store = provider.openWriter()) {
      var receipt = store.write(new WriteBatch().put(bytes("k"), bytes("v")));
      store.flushWal();
      store.awaitDurable(receipt);
    }
    try (KvStore store = provider.openWriter()) {
      assertArrayEquals(bytes("v"), store.get(bytes("k")));
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
