package dev.moraine.store;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.LakeFiles;
import dev.moraine.core.catalog.StoreUnavailableException;
import dev.moraine.core.catalog.model.LakeObject;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A lake's data path in an object store (a local directory, an S3 bucket and prefix, or an
 * in-memory store), for {@code Catalog.cleanupOldFiles} and {@code Catalog.deleteOrphanedFiles}:
 * {@code ObjectStoreLakeFiles.of(ObjectStoreSpec.localDirectory(Path.of("/lakes/sales/data")), "")}
 * when the data path is {@code /lakes/sales/data/}.
 *
 * <p>Holds one native object-store handle until {@link #close()}; calls are serialised on the
 * instance (each is one bounded object-store request or listing).
 */
public final class ObjectStoreLakeFiles implements LakeFiles, AutoCloseable {
  private final String folder;
  private final long timeoutMillis;
  // Whether the store is a local directory: files outside the data path are then local files too.
  private final boolean local;
  // Guarded by this: the handle is freed once, and never used after.
  private long handle;

  private ObjectStoreLakeFiles(long handle, String folder, Duration timeout, boolean local) {
    this.handle = handle;
    this.folder = folder;
    this.local = local;
    this.timeoutMillis = StoreSettings.millisOrNone(timeout);
  }

  /**
   * The objects of {@code spec} under {@code folder} (empty for the store's root), each request
   * bounded by SlateDB's default operation timeout of this binding.
   *
   * @throws InvalidArgumentException if an argument is null
   */
  public static ObjectStoreLakeFiles of(ObjectStoreSpec spec, String folder) {
    return of(spec, folder, StoreSettings.defaults().operationTimeout());
  }

  /**
   * As {@link #of(ObjectStoreSpec, String)}, each request bounded by {@code timeout} (null: none).
   */
  public static ObjectStoreLakeFiles of(ObjectStoreSpec spec, String folder, Duration timeout) {
    if (spec == null || folder == null) {
      throw new InvalidArgumentException("the object store and the folder must not be null");
    }
    String trimmed = folder.replaceAll("^/+|/+$", "");
    long handle =
        Lake.translate("opening the lake's object store", () -> ObjectStoreHandles.open(spec));
    return new ObjectStoreLakeFiles(
        handle, trimmed, timeout, spec instanceof ObjectStoreSpec.LocalDirectory);
  }

  @Override
  public synchronized List<LakeObject> list() {
    long h = open();
    byte[] encoded =
        Lake.translate(
            "listing the lake's files", () -> Native.storeList(h, folder, timeoutMillis));
    ByteBuffer b = ByteBuffer.wrap(encoded);
    List<LakeObject> out = new ArrayList<>();
    int cut = folder.isEmpty() ? 0 : folder.length() + 1;
    while (b.hasRemaining()) {
      byte[] path = new byte[b.getInt()];
      b.get(path);
      long size = b.getLong();
      long modified = b.getLong();
      String full = new String(path, StandardCharsets.UTF_8);
      out.add(new LakeObject(full.substring(cut), size, Instant.ofEpochMilli(modified)));
    }
    return out;
  }

  @Override
  public synchronized void delete(String path) {
    if (path == null || path.isEmpty()) {
      throw new InvalidArgumentException("the path to delete must not be empty");
    }
    long h = open();
    String full = folder.isEmpty() ? path : folder + "/" + path;
    Lake.translate(
        "deleting " + path,
        () -> {
          Native.storeDelete(h, full, timeoutMillis);
          return null;
        });
  }

  /**
   * True for an absolute local path ({@code /...} or {@code file:...}) when the data path is a
   * local directory: such a file is deleted as stock DuckLake's cleanup deletes it. S3 objects
   * outside the data path's prefix are not reached.
   */
  @Override
  public boolean reachesOutside(String absolutePath) {
    return local
        && absolutePath != null
        && (absolutePath.startsWith("/") || absolutePath.startsWith("file:"));
  }

  @Override
  public void deleteOutside(String absolutePath) {
    if (!reachesOutside(absolutePath)) {
      throw new UnsupportedOperationException("not a local file: " + absolutePath);
    }
    Path file =
        absolutePath.startsWith("file:")
            ? Path.of(URI.create(absolutePath))
            : Path.of(absolutePath);
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new StoreUnavailableException(
          "cannot delete " + absolutePath + ": " + e.getMessage(), e);
    }
  }

  @Override
  public synchronized void close() {
    ObjectStoreHandles.free(handle);
    handle = 0;
  }

  private long open() {
    if (handle == 0) {
      throw new IllegalStateException("the lake's files are closed");
    }
    return handle;
  }
}
