package dev.moraine.core.view;

import dev.moraine.core.catalog.StoreUnavailableException;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvSnapshot;
import dev.moraine.core.kv.KvStore;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Where a catalog reads, and how one load gets a single consistent state of the store (RFC 0003
 * §4). A demand load reads several ranges (an entity's current record, then its history); a commit
 * landing between two of them could move a version from current to history unseen, so every load
 * runs as one {@link #consistent} call.
 */
public interface ReadSource {
  /** Runs {@code body} over one consistent state of the store and returns its result. */
  <T> T consistent(Function<KvReadView, T> body);

  /** A writer store: each load runs in a store snapshot of its own, released when it returns. */
  static ReadSource of(KvStore store) {
    return new ReadSource() {
      @Override
      public <T> T consistent(Function<KvReadView, T> body) {
        try (KvSnapshot snapshot = store.snapshot()) {
          return body.apply(snapshot);
        }
      }
    };
  }

  /**
   * A reader, which has no snapshots: each load is bracketed by two reads of {@code sys/head}.
   * Every batch that changes what a load can reach stamps the head with a higher {@code batch_seq}
   * (RFC 0002 §12.2), and a reader's view of the store only moves forward, so equal heads before
   * and after mean no such batch became visible in between and the load saw one state. Otherwise
   * the load runs again, up to {@link #ATTEMPTS} times.
   */
  static ReadSource of(KvReader reader) {
    return new ReadSource() {
      @Override
      public <T> T consistent(Function<KvReadView, T> body) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
          byte[] before = reader.get(HEAD_KEY);
          T result = body.apply(reader);
          byte[] after = reader.get(HEAD_KEY);
          if (Arrays.equals(before, after)) {
            return result;
          }
        }
        throw new StoreUnavailableException(
            "the store's head moved during each of "
                + ATTEMPTS
                + " attempts to read one consistent state");
      }
    };
  }

  /** How many times a bracketed load runs before giving up. */
  int ATTEMPTS = 16;

  /** The head's key. */
  byte[] HEAD_KEY = KeyCodec.encode(SysKey.HEAD);
}
