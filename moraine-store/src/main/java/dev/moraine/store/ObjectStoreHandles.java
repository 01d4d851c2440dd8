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
      return Native.storeS3(
          s3.endpoint(),
          s3.bucket(),
          s3.prefix(),
          s3.region(),
          s3.accessKeyId(),
          s3.secretAccessKey(),
          s3.allowHttp());
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

  /** Frees a handle from {@link #open}; 0 is ignored. */
  static void free(long handle) {
    if (handle != 0) {
      Native.storeFree(handle);
    }
  }
}
