package dev.moraine.core.view;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.CurrentKey;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.HistoryKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The one place that answers "what does entity X look like at snapshot S" from the keyspace:
 * current plus history, as RFC 0002 §5.2/§5.3 lay them out and RFC 0003 §3.3 reads them. Every read
 * goes through the {@link KvReadView} it is given, which the caller keeps consistent for the whole
 * call (RFC 0003 §4); nothing here caches or writes. The commit path stages new versions through
 * the same codecs and asks these same questions of its premise.
 */
public final class EntityVersions {
  private EntityVersions() {}

  /**
   * The version of {@code entity} live at {@code at}, if any: the current record when it began at
   * or before {@code at}, otherwise the ended version whose span covers {@code at}. Unversioned
   * kinds have only their current record.
   */
  static Optional<Message> at(KvReadView view, EntityKey entity, long at) {
    Key currentKey = CurrentKey.of(entity);
    byte[] bytes = view.get(KeyCodec.encode(currentKey));
    if (bytes != null) {
      Message current = ValueCodec.decode(currentKey, bytes);
      if (Visibility.liveAt(current, at)) {
        return Optional.of(current);
      }
    }
    if (!entity.kind().versioned()) {
      return Optional.empty();
    }
    // Ended versions of one entity sort by their end snapshot; the first one ending after `at`
    // is the only candidate, since an entity's versions do not overlap.
    try (KvIterator it = view.scanPrefix(KeyPrefixes.historyOf(entity))) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        Key key = KeyCodec.decode(kv.key());
        Message ended = ValueCodec.decode(key, kv.value());
        if (Visibility.liveAt(ended, at)) {
          return Optional.of(ended);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Every entity of {@code kind} (of one table when {@code tableId} is given; the kind must then be
   * table-scoped) live at {@code at}, keyed and ordered by their current keys. Reads the kind's (or
   * the table's) current range and, for versioned kinds, its history range.
   */
  static SortedMap<KeyBytes, Message> allAt(
      KvReadView view, EntityKind kind, Long tableId, long at) {
    TreeMap<KeyBytes, Message> live = new TreeMap<>();
    byte[] currentPrefix =
        tableId == null
            ? KeyPrefixes.currentOfKind(kind)
            : KeyPrefixes.currentOfTable(kind, tableId);
    try (KvIterator it = view.scanPrefix(currentPrefix)) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        Message m = ValueCodec.decode(KeyCodec.decode(kv.key()), kv.value());
        if (Visibility.liveAt(m, at)) {
          live.put(new KeyBytes(kv.key()), m);
        }
      }
    }
    if (kind.versioned()) {
      byte[] historyPrefix =
          tableId == null
              ? KeyPrefixes.historyOfKind(kind)
              : KeyPrefixes.historyOfTable(kind, tableId);
      try (KvIterator it = view.scanPrefix(historyPrefix)) {
        while (it.hasNext()) {
          KeyValue kv = it.next();
          HistoryKey key = (HistoryKey) KeyCodec.decode(kv.key());
          Message m = ValueCodec.decode(key, kv.value());
          if (Visibility.liveAt(m, at)) {
            // At most one version of an entity is live at `at`, so this never replaces one.
            live.put(new KeyBytes(KeyCodec.encode(CurrentKey.of(key.entity()))), m);
          }
        }
      }
    }
    return live;
  }
}
