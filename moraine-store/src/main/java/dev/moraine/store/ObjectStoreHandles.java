package dev.moraine.store;

/**
 * Turns an {@link ObjectStoreSpec} into a short-lived native object-store handle. The caller passes
 * it to one open call (which keeps its own reference to the store) and frees it with {@link
 * Native#storeFree} right after, success or not.
 */
final class ObjectStoreHandles {
  private ObjectStoreHandles() {}

  /** Opens {@code spec}; 0 for a null spec. */
  static long open(ObjectStoreSpec spec) {
    if (spec == null) {
      return 0;
    }
    if (spec instanceof ObjectStoreSpec.InMemory memory) {
      return Native.storeMemory(memory.name());
    }
    if (spec instanceof ObjectStoreSpec.LocalDirectory local) {
      return Native.storeLocal(local.directory().toString(), local.fsync());
    }
    if (spec instanceof ObjectStoreSpec.S3 s3) {
      return openS3(s3);
    }
    ObjectStoreSpec.Faulty faulty = (ObjectStoreSpec.Faulty) spec;
    long inner = open(faulty.inner());
    try {
      NativeHandle injector = faulty.injector().handle();
      long address = injector.enter();
      try {
        return Native.storeFaulty(inner, address);
      } finally {
        injector.exit();
      }
    } finally {
      Native.storeFree(inner);
    }
  }

  // S3: credentials and timeouts.
  private static final int CREDENTIALS_DEFAULT_CHAIN = 0;
  private static final int CREDENTIALS_ANONYMOUS = 1;
  private static final int CREDENTIALS_STATIC = 2;

  private static long openS3(ObjectStoreSpec.S3 s3) {
    int mode;
    String accessKey = null;
    String secretKey = null;
    String sessionToken = null;
    if (s3.credentials() instanceof S3Credentials.Static keys) {
      mode = CREDENTIALS_STATIC;
      accessKey = keys.accessKeyId();
      secretKey = keys.secretAccessKey();
      sessionToken = keys.sessionToken();
    } else if (s3.credentials() instanceof S3Credentials.Anonymous) {
      mode = CREDENTIALS_ANONYMOUS;
    } else {
      mode = CREDENTIALS_DEFAULT_CHAIN;
    }
    S3Timeouts timeouts = s3.timeouts();
    return Native.storeS3(
        s3.endpoint(),
        s3.bucket(),
        s3.prefix(),
        s3.region(),
        mode,
        accessKey,
        secretKey,
        sessionToken,
        s3.allowHttp(),
        timeouts.connect().toMillis(),
        timeouts.request().toMillis(),
        timeouts.poolIdle().toMillis());
  }

  /** Frees a handle from {@link #open}; 0 is ignored. */
  static void free(long handle) {
    if (handle != 0) {
      Native.storeFree(handle);
    }
  }
}
