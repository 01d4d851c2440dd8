package dev.moraine.store;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KvInvalidArgumentException;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.core.lake.KvErrors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Opens a lake from where it is, in one call, as the writer or read-only:
 *
 * <pre>{@code
 * try (Catalog catalog = Lake.open(LakeLocation.of("/data/lakes/sales"))) { ... }
 * try (ReadOnlyCatalog catalog = Lake.openReadOnly(
 *     LakeLocation.of("s3://my-bucket/lakes/sales", S3Credentials.defaultChain()))) { ... }
 * }</pre>
 *
 * <p>The catalog returned owns the store handle it opened: closing the catalog closes the handle
 * too. Hosts that share one handle between several users, or need a separate WAL store, open the
 * handle themselves ({@link SlateStoreProvider} on {@link LakeLocation#storeConfig()}) and pass it
 * to {@link Catalog#open}.
 *
 * <p>Before anything is opened, the location is looked at (one listing, which writes nothing): a
 * missing bucket, a place that holds objects but no SlateDB database, a SlateDB database that holds
 * no catalog, and a lake of another format are refused there with a typed error, and nothing is
 * written or left open. Every error is a {@code MoraineException} (docs/errors.md).
 */
public final class Lake {
  private static final int EMPTY = 0;
  private static final int DATABASE = 1;
  private static final int OTHER = 2;
  private static final int NO_BUCKET = 3;

  private Lake() {}

  /** {@link #open(LakeLocation, CatalogOptions)} with {@link CatalogOptions#defaults()}. */
  public static Catalog open(LakeLocation location) {
    return open(location, CatalogOptions.defaults());
  }

  /**
   * Opens the lake at {@code location} as its writer, fencing any other writer, and creates it
   * first where nothing is stored (a new local directory is created with its parents). The
   * catalog's close closes the store handle too.
   *
   * @throws InvalidArgumentException if an argument is null; nothing was opened
   * @throws LakeLocationException if the bucket is missing ({@link ErrorCode#LOCATION_NOT_FOUND})
   *     or the location holds something other than a lake ({@link ErrorCode#NOT_A_LAKE}); nothing
   *     was written
   * @throws dev.moraine.core.catalog.UnsupportedFormatException if the lake is of another format,
   *     or being migrated; nothing was written and no other writer was fenced
   * @throws dev.moraine.core.catalog.StoreUnavailableException if the object store failed; as for
   *     {@link Catalog#open}
   */
  public static Catalog open(LakeLocation location, CatalogOptions options) {
    requireArguments(location, options);
    SlateStoreProvider provider = new SlateStoreProvider(location.storeConfig());
    if (look(location, true) == DATABASE) {
      refuseForeignDatabase(location, provider, options);
    }
    KvStore store = translate("opening the lake's store", provider::openWriter);
    try {
      return OwningCatalogs.writer(Catalog.open(store, options), store, location.toString());
    } catch (RuntimeException refused) {
      closeAfterFailure(store::close, refused);
      throw refused;
    }
  }

  /** {@link #openReadOnly(LakeLocation, CatalogOptions)} with {@link CatalogOptions#defaults()}. */
  public static ReadOnlyCatalog openReadOnly(LakeLocation location) {
    return openReadOnly(location, CatalogOptions.defaults());
  }

  /**
   * Opens the lake at {@code location} read-only, through a reader that follows its latest state.
   * Writes nothing, creates nothing and fences no one. The catalog's close closes the reader too.
   *
   * @throws InvalidArgumentException if an argument is null; nothing was opened
   * @throws NotFoundException with {@link ErrorCode#NOT_INITIALIZED} if nothing is stored at the
   *     location (a local directory that does not exist included)
   * @throws LakeLocationException if the bucket is missing ({@link ErrorCode#LOCATION_NOT_FOUND})
   *     or the location holds something other than a lake ({@link ErrorCode#NOT_A_LAKE})
   * @throws dev.moraine.core.catalog.UnsupportedFormatException if the lake is of another format,
   *     or being migrated
   * @throws dev.moraine.core.catalog.StoreUnavailableException if the object store failed
   */
  public static ReadOnlyCatalog openReadOnly(LakeLocation location, CatalogOptions options) {
    requireArguments(location, options);
    if (look(location, false) == EMPTY) {
      throw new NotFoundException(
          ErrorCode.NOT_INITIALIZED,
          "no lake at "
              + location
              + ": nothing is stored there; open it as the writer to create one");
    }
    KvReader reader = openReader(new SlateStoreProvider(location.storeConfig()));
    try {
      ReadOnlyCatalog catalog;
      try {
        catalog = Catalog.openReadOnly(reader, options);
      } catch (NotFoundException noCatalog) {
        refuseIfNotEmpty(location, reader, noCatalog);
        throw noCatalog;
      }
      return OwningCatalogs.reader(catalog, reader, location.toString());
    } catch (RuntimeException refused) {
      closeAfterFailure(reader::close, refused);
      throw refused;
    }
  }

  /**
   * What is at the location, from one listing; refuses a missing bucket and a place that holds
   * something else. For a reader, a local directory that does not exist is empty and is not created
   * (opening a local store creates its directory).
   */
  private static int look(LakeLocation location, boolean forWriter) {
    ObjectStoreSpec spec = location.objectStore();
    if (spec instanceof ObjectStoreSpec.LocalDirectory local) {
      Path directory = local.directory();
      if (Files.exists(directory) && !Files.isDirectory(directory)) {
        throw new LakeLocationException(
            ErrorCode.NOT_A_LAKE, "no lake at " + location + ": it is a file, not a directory");
      }
      if (!forWriter && !Files.exists(directory)) {
        return EMPTY;
      }
    }
    int found =
        translate(
            "looking at the lake's location",
            () -> {
              long handle = ObjectStoreHandles.open(spec);
              try {
                return Native.storeProbe(
                    handle,
                    location.storeConfig().path(),
                    StoreSettings.millisOrNone(
                        location.storeConfig().settings().operationTimeout()));
              } finally {
                ObjectStoreHandles.free(handle);
              }
            });
    if (found == NO_BUCKET) {
      ObjectStoreSpec.S3 s3 = (ObjectStoreSpec.S3) spec;
      throw new LakeLocationException(
          ErrorCode.LOCATION_NOT_FOUND,
          "no lake at "
              + location
              + ": the bucket '"
              + s3.bucket()
              + "' does not exist"
              + (s3.endpoint() == null ? "" : " at " + s3.endpoint()));
    }
    if (found == OTHER) {
      throw new LakeLocationException(
          ErrorCode.NOT_A_LAKE,
          "no lake at "
              + location
              + ": it holds other files and no SlateDB database (no manifest folder); a lake is"
              + " created only where nothing is stored");
    }
    return found;
  }

  /**
   * Reads the format of the database at the location through a reader, which writes nothing and
   * fences no one, before a writer's open takes the lake over: a lake of another format, or a
   * database that holds something other than a catalog, is refused while its own writer goes on.
   */
  private static void refuseForeignDatabase(
      LakeLocation location, SlateStoreProvider provider, CatalogOptions options) {
    KvReader reader = openReader(provider);
    try {
      try {
        Catalog.openReadOnly(reader, options).close();
      } catch (NotFoundException noCatalog) {
        refuseIfNotEmpty(location, reader, noCatalog);
      }
    } catch (RuntimeException refused) {
      closeAfterFailure(reader::close, refused);
      throw refused;
    }
    translate(
        "closing the lake's store",
        () -> {
          reader.close();
          return null;
        });
  }

  /** A SlateDB database without a catalog is someone else's unless it holds nothing at all. */
  private static void refuseIfNotEmpty(
      LakeLocation location, KvReader reader, NotFoundException noCatalog) {
    if (noCatalog.code() != ErrorCode.NOT_INITIALIZED) {
      throw noCatalog;
    }
    boolean holdsKeys =
        translate(
            "reading the lake's store",
            () -> {
              try (KvIterator keys = reader.scan(KeyRange.all())) {
                return keys.hasNext();
              }
            });
    if (holdsKeys) {
      throw new LakeLocationException(
          ErrorCode.NOT_A_LAKE,
          "no lake at "
              + location
              + ": it holds a SlateDB database with other data and no Moraine catalog (no format"
              + " stamp)");
    }
  }

  private static KvReader openReader(SlateStoreProvider provider) {
    return translate(
        "opening the lake's store", () -> provider.openReader(ReaderMode.followLatest()));
  }

  private static void requireArguments(LakeLocation location, CatalogOptions options) {
    if (location == null) {
      throw new InvalidArgumentException("location must not be null");
    }
    if (options == null) {
      throw new InvalidArgumentException("options must not be null");
    }
  }

  /** Closes a handle after a failed open; what the close throws is kept as suppressed. */
  private static void closeAfterFailure(Runnable close, RuntimeException failure) {
    try {
      close.run();
    } catch (RuntimeException alsoFailed) {
      failure.addSuppressed(alsoFailed);
    }
  }

  /**
   * Runs a store call, answering in the catalog's error family: an argument the store refused is
   * the caller's (an endpoint that is not a URL, say), everything else maps as at the catalog's
   * boundary.
   */
  /** Runs {@code call}, its store failures turned into the catalog's exceptions. */
  static <T> T translate(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (KvInvalidArgumentException refused) {
      throw new InvalidArgumentException(what + ": " + refused.getMessage());
    } catch (RuntimeException e) {
      throw KvErrors.map(what, e);
    }
  }
}
