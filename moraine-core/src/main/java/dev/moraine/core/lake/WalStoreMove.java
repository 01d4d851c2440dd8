package dev.moraine.core.lake;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.OptionScopeValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvStoreProvider;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.view.CatalogReads;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moving a catalog's write-ahead log to another object store (or back into the store's own), in two
 * opens whose order is the whole design (the commit RFC, "Moving it"):
 *
 * <ol>
 *   <li>Open the writer with the log store the catalog records (refusing any other) and write what
 *       is in memory out to the store's own object store: the log's contents now live in
 *       sorted-string tables, and the replay point is past them, so the old log holds nothing a
 *       replay needs.
 *   <li>Open the writer with the new log store and record it there, in the one write that reaches
 *       the new log; write that out too.
 * </ol>
 *
 * <p>Every crash leaves the catalog openable with nothing lost. Before the second write is durable
 * the record still names the old store, whose log is drained: an open with it serves everything,
 * and the move can be run again. After, the record names the new store and the write that says so
 * is in the new log, which an open with the new store replays; an open with the old store then
 * still finds the old record in the sorted-string tables and merely leaves the move un-applied
 * until the second step's write-out. No moment refuses both.
 */
public final class WalStoreMove {
  private static final Logger LOG = LoggerFactory.getLogger(WalStoreMove.class);

  private static final Key GLOBAL = CurrentKey.of(EntityKey.OptionScope.global());
  private static final byte[] GLOBAL_KEY = KeyCodec.encode(GLOBAL);

  private WalStoreMove() {}

  /**
   * Moves the catalog's log from where {@code from} keeps it to where {@code to} keeps it. Nothing
   * may hold the catalog meanwhile: each step opens the writer (fencing any other).
   *
   * @throws dev.moraine.core.catalog.WalStoreMismatchException if {@code from} is not the log store
   *     the catalog records; nothing was written
   * @throws InvalidArgumentException if the destination lies inside the lake's data path, or is
   *     where the log already is; nothing was written
   * @throws NotFoundException with {@link ErrorCode#NOT_INITIALIZED} if the store holds no catalog
   */
  public static void move(KvStoreProvider from, KvStoreProvider to) {
    Optional<String> destination = to.walStore();
    if (destination.equals(from.walStore())) {
      throw new InvalidArgumentException(
          "the write-ahead log is already kept in " + describe(destination));
    }
    try (KvStore old = from.openWriter()) {
      KvErrors.translate(
          "draining the write-ahead log",
          () -> {
            Optional<String> dataPath = check(old, old.walStore());
            if (destination.isPresent()
                && dataPath.isPresent()
                && WalStoreRecord.inside(destination.get(), dataPath.get())) {
              throw new InvalidArgumentException(
                  "the write-ahead-log store "
                      + destination.get()
                      + " lies inside the lake's data path "
                      + dataPath.get()
                      + ", where a cleanup of unreferenced files would delete the log");
            }
            old.flushMemtable();
            return null;
          });
    }
    try (KvStore moved = to.openWriter()) {
      KvErrors.translate(
          "recording the new write-ahead-log store",
          () -> {
            record(moved, destination);
            moved.flushWal();
            moved.flushMemtable();
            return null;
          });
    }
    LOG.info(
        "moved the write-ahead log from {} to {}",
        describe(from.walStore()),
        describe(destination));
  }

  /** Checks the catalog's format and log record, in one consistent read; returns its data path. */
  private static Optional<String> check(KvStore store, Optional<String> walStore) {
    try (var snapshot = store.snapshot()) {
      if (FormatCheck.validate(snapshot).isEmpty()) {
        throw new NotFoundException(ErrorCode.NOT_INITIALIZED, "the store holds no catalog");
      }
      WalStoreRecord.check(snapshot, walStore);
      return Optional.ofNullable(globalOptions(snapshot).getOptionsMap().get("data_path"));
    }
  }

  /** The recorded log store set to {@code walStore}, with the head restamped, in one write. */
  private static void record(KvStore store, Optional<String> walStore) {
    try (KvTransaction tx = store.begin()) {
      if (FormatCheck.validate(tx).isEmpty()) {
        throw new NotFoundException(ErrorCode.NOT_INITIALIZED, "the store holds no catalog");
      }
      HeadValue head = CatalogReads.readHead(tx);
      OptionScopeValue.Builder global = globalOptions(tx).toBuilder();
      if (walStore.isPresent()) {
        global.putOptions(WalStoreRecord.OPTION, walStore.get());
      } else {
        global.removeOptions(WalStoreRecord.OPTION);
      }
      // Like any batch that changes what a read can reach, it restamps the head at the same
      // snapshot with the batch sequence advanced (RFC 0002 §12.2).
      HeadValue next = head.toBuilder().setBatchSeq(head.getBatchSeq() + 1).build();
      tx.putAll(
          new WriteBatch()
              .put(GLOBAL_KEY, ValueCodec.encode(GLOBAL, global.build()))
              .put(KeyCodec.encode(SysKey.HEAD), ValueCodec.encode(SysKey.HEAD, next)));
      tx.commit();
    }
  }

  private static OptionScopeValue globalOptions(KvReadView v) {
    byte[] bytes = v.get(GLOBAL_KEY);
    return bytes == null
        ? OptionScopeValue.getDefaultInstance()
        : ValueCodec.decode(GLOBAL, bytes, OptionScopeValue.class);
  }

  private static String describe(Optional<String> walStore) {
    return walStore.orElse("the store's own object store");
  }
}
