package dev.moraine.store.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An S3-compatible endpoint for tests.
 *
 * <p>By default it starts S3Proxy inside the test JVM, listening on a free port of 127.0.0.1,
 * backed by a directory under the system temp directory ({@code filesystem} backend) or by memory
 * ({@code transient}), signs with AWS V2 or V4 using fixed test credentials, and creates one
 * bucket. {@link #close()} stops the proxy and removes the directory.
 *
 * <p>When the system property {@code moraine.s3.endpoint} is set, nothing is started: the tests run
 * against that endpoint, in a bucket that must already exist. Properties:
 *
 * <table>
 *   <caption>System properties</caption>
 *   <tr><th>property</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code moraine.s3.endpoint}</td><td>base URI of the service</td><td>(embedded S3Proxy)</td></tr>
 *   <tr><td>{@code moraine.s3.bucket}</td><td>existing bucket</td><td>required with an endpoint</td></tr>
 *   <tr><td>{@code moraine.s3.region}</td><td>signing region</td><td>{@code us-east-1}</td></tr>
 *   <tr><td>{@code moraine.s3.accessKey}</td><td>access key id</td><td>required with an endpoint</td></tr>
 *   <tr><td>{@code moraine.s3.secretKey}</td><td>secret access key</td><td>required with an endpoint</td></tr>
 *   <tr><td>{@code moraine.s3.prefix}</td><td>key prefix under which every run writes</td><td>{@code moraine-test}</td></tr>
 *   <tr><td>{@code moraine.s3.allowHttp}</td><td>allow plain HTTP</td><td>true when the endpoint is {@code http:}</td></tr>
 *   <tr><td>{@code moraine.s3.backend}</td><td>embedded backend: {@code filesystem} or {@code transient}</td><td>{@code filesystem}</td></tr>
 * </table>
 *
 * <p>Either way, every run writes under {@code <prefix>/run-<utc time>-<random>}, and every store a
 * test opens gets its own location below that ({@link #newLocation(String)}), so runs and tests
 * never see each other's objects. Objects written to an external endpoint are left in place.
 */
public final class S3Fixture implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(S3Fixture.class);

  public static final String PROPERTY_PREFIX = "moraine.s3.";

  /** Credentials of the embedded proxy; meaningless outside this JVM. */
  static final String EMBEDDED_ACCESS_KEY = "moraine-test-access";

  static final String EMBEDDED_SECRET_KEY = "moraine-test-secret";
  static final String EMBEDDED_BUCKET = "moraine-test";
  static final String EMBEDDED_REGION = "us-east-1";

  private static final DateTimeFormatter RUN_STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final S3Location runLocation;
  private final S3Proxy proxy;
  private final BlobStore blobStore;
  private final Path baseDir;
  private final AtomicInteger counter = new AtomicInteger();
  private boolean closed;

  private S3Fixture(S3Location runLocation, S3Proxy proxy, BlobStore blobStore, Path baseDir) {
    this.runLocation = runLocation;
    this.proxy = proxy;
    this.blobStore = blobStore;
    this.baseDir = baseDir;
  }

  /** Starts the fixture as the system properties say (see the class comment). */
  public static S3Fixture start() {
    return start(System.getProperties());
  }

  /**
   * Starts the fixture as {@code properties} say: the {@code moraine.s3.*} keys of the class
   * comment.
   */
  public static S3Fixture start(Properties properties) {
    String endpoint = property(properties, "endpoint", null);
    if (endpoint != null && !endpoint.isBlank()) {
      return external(URI.create(endpoint.trim()), properties);
    }
    return embedded(property(properties, "backend", "filesystem"));
  }

  private static S3Fixture external(URI endpoint, Properties properties) {
    String bucket = required(properties, "bucket");
    String accessKey = required(properties, "accessKey");
    String secretKey = required(properties, "secretKey");
    String region = property(properties, "region", "us-east-1");
    boolean allowHttp =
        Boolean.parseBoolean(
            property(
                properties,
                "allowHttp",
                String.valueOf("http".equalsIgnoreCase(endpoint.getScheme()))));
    String prefix = property(properties, "prefix", "moraine-test").replaceAll("^/+|/+$", "");
    S3Location run =
        new S3Location(
                endpoint,
                bucket,
                prefix.isEmpty() ? "moraine-test" : prefix,
                region,
                accessKey,
                secretKey,
                allowHttp)
            .child(runName());
    LOG.info("S3 tests use the external endpoint {}", run);
    return new S3Fixture(run, null, null, null);
  }

  /**
   * Starts S3Proxy in this JVM on a free loopback port.
   *
   * @param backend {@code filesystem} (a fresh temp directory) or {@code transient} (memory)
   */
  public static S3Fixture embedded(String backend) {
    return embedded(backend, true);
  }

  /**
   * Starts S3Proxy in this JVM that accepts any request, signed or not, for tests of unsigned
   * access (file system backend, as the default one). Its location still carries the usual test
   * keys, which it ignores.
   */
  public static S3Fixture embeddedWithoutAuthentication() {
    return embedded("filesystem", false);
  }

  private static S3Fixture embedded(String backend, boolean authenticate) {
    Path dir = null;
    Properties props = new Properties();
    try {
      if (backend.equals("filesystem")) {
        dir = Files.createTempDirectory("moraine-s3proxy-");
        props.setProperty("jclouds.filesystem.basedir", dir.toString());
      } else if (!backend.equals("transient")) {
        throw new IllegalArgumentException(
            "moraine.s3.backend must be filesystem or transient, was " + backend);
      }
      BlobStore store = BlobStores.create(backend, props);
      S3Proxy proxy =
          S3Proxy.builder()
              .blobStore(store)
              .endpoint(URI.create("http://127.0.0.1:0"))
              .awsAuthentication(
                  authenticate ? AuthenticationType.AWS_V2_OR_V4 : AuthenticationType.NONE,
                  EMBEDDED_ACCESS_KEY,
                  EMBEDDED_SECRET_KEY)
              .ignoreUnknownHeaders(true)
              .stopTimeout(0)
              .build();
      proxy.start();
      awaitStarted(proxy);
      store.createContainer(EMBEDDED_BUCKET);
      URI endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
      S3Location run =
          new S3Location(
              endpoint,
              EMBEDDED_BUCKET,
              "moraine-test/" + runName(),
              EMBEDDED_REGION,
              EMBEDDED_ACCESS_KEY,
              EMBEDDED_SECRET_KEY,
              true);
      LOG.info("S3Proxy ({} backend) listens at {}", backend, endpoint);
      return new S3Fixture(run, proxy, store, dir);
    } catch (IOException e) {
      deleteTree(dir);
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      deleteTree(dir);
      throw e;
    } catch (Exception e) {
      deleteTree(dir);
      throw new IllegalStateException("S3Proxy did not start", e);
    }
  }

  private static void awaitStarted(S3Proxy proxy) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!"STARTED".equals(proxy.getState())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("S3Proxy stuck in state " + proxy.getState());
      }
      Thread.sleep(5);
    }
  }

  /** True when this fixture runs its own S3Proxy. */
  public boolean isEmbedded() {
    return proxy != null;
  }

  /** The location under which this run writes. */
  public S3Location runLocation() {
    return runLocation;
  }

  /**
   * A location no other test has used in this run: {@code <run prefix>/<label>-<n>}.
   *
   * @param label a readable tag, for example the test's name
   */
  public S3Location newLocation(String label) {
    String clean = label.replaceAll("[^A-Za-z0-9._-]", "_");
    if (clean.isEmpty()) {
      clean = "store";
    }
    if (clean.length() > 60) {
      clean = clean.substring(0, 60);
    }
    return runLocation.child(clean + "-" + counter.incrementAndGet());
  }

  /** A client signing requests for this fixture's credentials. */
  S3Signer signer() {
    return new S3Signer(runLocation);
  }

  /** Stops the embedded proxy and deletes its directory. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (proxy != null) {
      try {
        proxy.stop();
      } catch (Exception e) {
        LOG.warn("S3Proxy did not stop cleanly", e);
      }
      try {
        blobStore.close();
      } catch (RuntimeException e) {
        LOG.warn("S3Proxy blob store did not close cleanly", e);
      }
    }
    deleteTree(baseDir);
  }

  @Override
  public String toString() {
    return (isEmbedded() ? "embedded S3Proxy " : "external ") + runLocation;
  }

  private static String runName() {
    return "run-"
        + RUN_STAMP.format(Instant.now())
        + "-"
        + UUID.randomUUID().toString().substring(0, 8);
  }

  private static String property(Properties properties, String name, String dflt) {
    return properties.getProperty(PROPERTY_PREFIX + name, dflt);
  }

  private static String required(Properties properties, String name) {
    String v = property(properties, name, null);
    if (v == null || v.isBlank()) {
      throw new IllegalStateException(
          "-D"
              + PROPERTY_PREFIX
              + name
              + " is required when -D"
              + PROPERTY_PREFIX
              + "endpoint is set");
    }
    return v.trim();
  }

  private static void deleteTree(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
              Files.deleteIfExists(d);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      LOG.warn("could not delete {}", dir, e);
    }
  }
}
