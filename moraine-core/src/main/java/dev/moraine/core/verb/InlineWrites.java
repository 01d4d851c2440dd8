package dev.moraine.core.verb;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.WriteBatch;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code inline} subspace writes of one commit attempt (RFC 0002 §9): puts and deletes of
 * inline keys, which live outside the entity model, are never versioned and never enter the
 * changelog. A later write of one key replaces an earlier one. Staging copies them into the batch
 * in key order.
 *
 * <p>Confined to the thread running the closure, like the rest of {@link VerbState}.
 */
public final class InlineWrites {
  // Encoded key -> encoded value, or null for a delete.
  private final TreeMap<byte[], byte[]> writes = new TreeMap<>(Arrays::compareUnsigned);

  void put(Key key, Message value) {
    writes.put(KeyCodec.encode(key), ValueCodec.encode(key, value));
  }

  void delete(Key key) {
    writes.put(KeyCodec.encode(key), null);
  }

  boolean isEmpty() {
    return writes.isEmpty();
  }

  /** Whether this attempt writes (puts or deletes) {@code key}. */
  boolean touches(Key key) {
    return writes.containsKey(KeyCodec.encode(key));
  }

  /** Adds every write to {@code batch}, in key order. */
  public void addTo(WriteBatch batch) {
    for (Map.Entry<byte[], byte[]> w : writes.entrySet()) {
      if (w.getValue() == null) {
        batch.delete(w.getKey());
      } else {
        batch.put(w.getKey(), w.getValue());
      }
    }
  }
}
