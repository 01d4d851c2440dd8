package dev.moraine.store;

import dev.moraine.core.kv.KvInvalidArgumentException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a store's objects live. Immutable descriptions; nothing is opened until a {@link
 * SlateStoreProvider} opens a handle.
 */
public sealed interface ObjectStoreSpec
    permits ObjectStoreSpec.InMemory,
        ObjectStoreSpec.LocalDirectory,
        ObjectStoreSpec.S3,
        ObjectStoreSpec.Faulty {

  /**
   * Where the store's objects are, as one line that names the store and never a credential: {@code
   * memory:<name>}, {@code file:///<absolute directory>/}, or {@code s3://<bucket>/<prefix>} (with
   * {@code ?endpoint=<url>} when an endpoint is set). A store seen through a fault injector is
   * where the store it wraps is. A catalog records its separate log store by this text.
   */
  default String location() {
    if (this instanceof InMemory m) {
      return "memory:" + m.name();
    }
    if (this instanceof LocalDirectory d) {
      return d.directory().normalize().toUri().toString();
    }
    if (this instanceof S3 s) {
      String prefix = s.prefix() == null ? "" : s.prefix().replaceAll("^/+|/+$", "");
      return "s3://"
          + s.bucket()
          + (prefix.isEmpty() ? "" : "/" + prefix)
          + (s.endpoint() == null ? "" : "?endpoint=" + s.endpoint());
    }
    return ((Faulty) this).inner().location();
  }

  /**
   * A named in-memory object store, shared by every open of the same name in this process: open a
   * writer, close it, open again with the same name and the data is there; open a second writer on
   * the same name and the first is fenced. The data lives until {@link #dropInMemory(String)} (and
   * the last handle using it closes).
   *
   * @param name the store's name in this process
   */
  record InMemory(String name) implements ObjectStoreSpec {
    public InMemory {
      requireText(name, "name");
    }
  }

  /**
   * A directory of the local file system, created if missing. It cannot do conditional updates
   * (If-Match), so the garbage collector runs without its boundary files there.
   *
   * <p>By default every write is fsynced before it is reported done: the object's contents before
   * it is published under its name, then the directory entry (and any directory created for it). So
   * a write SlateDB reports durable survives a power cut, not only a process crash. {@link
   * #withoutFsync()} turns that off for tests and scratch data: writes then reach only the
   * operating system's page cache, which a crash of the process keeps but a power cut may lose.
   *
   * @param directory the directory holding the objects
   * @param fsync whether writes are fsynced before they are reported done
   */
  record LocalDirectory(Path directory, boolean fsync) implements ObjectStoreSpec {
    public LocalDirectory {
      Objects.requireNonNull(directory, "directory");
      directory = directory.toAbsolutePath();
    }

    /** {@code directory} with writes fsynced (the default). */
    public LocalDirectory(Path directory) {
      this(directory, true);
    }

    /**
     * The same directory without fsync: a write is reported done once it is in the page cache. It
     * survives a crash of the process but not a power cut. Meant for tests.
     */
    public LocalDirectory withoutFsync() {
      return new LocalDirectory(directory, false);
    }
  }

  /**
   * An S3-compatible object store (AWS, MinIO, S3Proxy, ...), addressed path-style. The store must
   * support conditional PUT (If-None-Match and If-Match), which SlateDB relies on for fencing.
   *
   * <p>{@code toString()} shows where the store is and which kind of credentials it uses, never a
   * key or token.
   *
   * @param endpoint the endpoint URL, or null for AWS
   * @param bucket the bucket
   * @param prefix a key prefix inside the bucket, or null/empty for none
   * @param region the region, or null for {@code us-east-1}
   * @param credentials how requests are authenticated; never null (see {@link S3Credentials})
   * @param allowHttp whether a plain {@code http://} endpoint is allowed
   * @param timeouts the client's timeouts; null means {@link S3Timeouts#DEFAULTS}
   */
  record S3(
      String endpoint,
      String bucket,
      String prefix,
      String region,
      S3Credentials credentials,
      boolean allowHttp,
      S3Timeouts timeouts)
      implements ObjectStoreSpec {
    /**
     * Checks the description.
     *
     * @throws KvInvalidArgumentException if the bucket is empty or the credentials are null;
     *     nothing is created
     */
    public S3 {
      requireText(bucket, "bucket");
      if (credentials == null) {
        throw new KvInvalidArgumentException(
            "S3 credentials must be chosen: S3Credentials.defaultChain(), anonymous() or ofKeys(...)");
      }
      if (timeouts == null) {
        timeouts = S3Timeouts.DEFAULTS;
      }
    }

    /** This store with other client timeouts. */
    public S3 withTimeouts(S3Timeouts timeouts) {
      return new S3(endpoint, bucket, prefix, region, credentials, allowHttp, timeouts);
    }

    /** This store with other credentials. */
    public S3 withCredentials(S3Credentials credentials) {
      return new S3(endpoint, bucket, prefix, region, credentials, allowHttp, timeouts);
    }

    /** Leaves keys and tokens out. */
    @Override
    public String toString() {
      return "S3[endpoint="
          + endpoint
          + ", bucket="
          + bucket
          + ", prefix="
          + prefix
          + ", region="
          + region
          + ", credentials="
          + credentials
          + ", allowHttp="
          + allowHttp
          + ", timeouts="
          + timeouts
          + "]";
    }
  }

  /**
   * Another store wrapped by a {@link FaultInjector}, for tests. The injector must stay open for as
   * long as a handle on the store is being opened; afterwards closing it only stops further control
   * (held PUTs are released).
   *
   * @param inner the store to wrap
   * @param injector the switchboard of faults
   */
  record Faulty(ObjectStoreSpec inner, FaultInjector injector) implements ObjectStoreSpec {
    public Faulty {
      Objects.requireNonNull(inner, "inner");
      Objects.requireNonNull(injector, "injector");
    }
  }

  /** A named in-memory store. */
  static ObjectStoreSpec inMemory(String name) {
    return new InMemory(name);
  }

  /** A local directory, with writes fsynced (see {@link LocalDirectory}). */
  static LocalDirectory localDirectory(Path directory) {
    return new LocalDirectory(directory);
  }

  /**
   * An S3-compatible store reached through {@code endpoint}, with the default timeouts.
   *
   * @param credentials how requests are authenticated (see {@link S3Credentials})
   */
  static S3 s3(
      String endpoint,
      String bucket,
      String prefix,
      String region,
      S3Credentials credentials,
      boolean allowHttp) {
    return new S3(endpoint, bucket, prefix, region, credentials, allowHttp, S3Timeouts.DEFAULTS);
  }

  /**
   * An S3-compatible store reached through {@code endpoint} with fixed keys ({@link
   * S3Credentials.Static}), or with the {@linkplain S3Credentials.DefaultChain default chain} when
   * both keys are null.
   *
   * @throws KvInvalidArgumentException if exactly one of the keys is null; nothing is created
   */
  static S3 s3(
      String endpoint,
      String bucket,
      String prefix,
      String region,
      String accessKeyId,
      String secretAccessKey,
      boolean allowHttp) {
    S3Credentials credentials =
        accessKeyId == null && secretAccessKey == null
            ? S3Credentials.defaultChain()
            : new S3Credentials.Static(accessKeyId, secretAccessKey, null);
    return s3(endpoint, bucket, prefix, region, credentials, allowHttp);
  }

  /** {@code inner} with faults from {@code injector}. */
  static ObjectStoreSpec faulty(ObjectStoreSpec inner, FaultInjector injector) {
    return new Faulty(inner, injector);
  }

  /**
   * Forgets the named in-memory store: the next open of the name starts empty. Handles still open
   * on it keep working on the old data.
   *
   * @return true if a store of that name existed
   */
  static boolean dropInMemory(String name) {
    requireText(name, "name");
    return Native.storeMemoryDrop(name);
  }

  private static void requireText(String value, String what) {
    if (value == null || value.isEmpty()) {
      throw new KvInvalidArgumentException(what + " must not be empty");
    }
  }
}
