package dev.moraine.core.keyspace;

import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.Subspace;
import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a store's keyspace divides (RFC 0002 §4): keys and bytes (key plus value) per subspace, and
 * within {@code current}, {@code history}, {@code inline} and {@code index} per kind of record,
 * from one scan of the whole store. Ended versions ({@code history}) are what a snapshot expiry can
 * reclaim once the snapshots that see them are gone; scheduled deletions are files awaiting the
 * file cleanup.
 *
 * @param parts one entry per subspace present, in key order, each with its parts
 * @param keys every key of the store
 * @param bytes every key's and value's bytes
 */
public record KeyspaceCensus(List<Part> parts, long keys, long bytes) {
  public KeyspaceCensus {
    parts = List.copyOf(parts);
  }

  /**
   * One subspace, or one kind of record within it.
   *
   * @param name the subspace's name (RFC 0002 §4), or the kind's within it
   * @param keys how many keys it holds
   * @param bytes their keys' and values' bytes
   * @param kinds the kinds within a subspace, in key order (empty for a kind)
   */
  public record Part(String name, long keys, long bytes, List<Part> kinds) {
    public Part {
      kinds = List.copyOf(kinds);
    }

    /** The kind called {@code name} within this subspace, or null. */
    public Part kind(String name) {
      for (Part p : kinds) {
        if (p.name.equals(name)) {
          return p;
        }
      }
      return null;
    }
  }

  /** The subspace called {@code name}, or null when the store holds none of its keys. */
  public Part subspace(String name) {
    for (Part p : parts) {
      if (p.name.equals(name)) {
        return p;
      }
    }
    return null;
  }

  /** Counts the keyspace through {@code view}, in one scan. */
  public static KeyspaceCensus of(KvReadView view) {
    Map<String, Map<String, long[]>> counts = new LinkedHashMap<>();
    long keys = 0;
    long bytes = 0;
    try (KvIterator it = view.scan(KeyRange.all())) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        byte[] key = kv.key();
        long size = key.length + (long) kv.value().length;
        keys++;
        bytes += size;
        Subspace subspace = key.length == 0 ? null : Subspace.ofTag(key[0] & 0xff);
        String name = subspace == null ? "unknown" : subspace.label();
        long[] c =
            counts
                .computeIfAbsent(name, n -> new LinkedHashMap<>())
                .computeIfAbsent(kindOf(subspace, key), k -> new long[2]);
        c[0]++;
        c[1] += size;
      }
    }
    List<Part> parts = new ArrayList<>();
    for (var s : counts.entrySet()) {
      List<Part> kinds = new ArrayList<>();
      long k = 0;
      long b = 0;
      for (var kind : s.getValue().entrySet()) {
        k += kind.getValue()[0];
        b += kind.getValue()[1];
        if (!kind.getKey().isEmpty()) {
          kinds.add(new Part(kind.getKey(), kind.getValue()[0], kind.getValue()[1], List.of()));
        }
      }
      parts.add(new Part(s.getKey(), k, b, kinds));
    }
    return new KeyspaceCensus(parts, keys, bytes);
  }

  /** The kind of record a key holds within its subspace, or "" where the census shows none. */
  private static String kindOf(Subspace subspace, byte[] key) {
    if (subspace == null || key.length < 2) {
      return "";
    }
    int second = key[1] & 0xff;
    return switch (subspace) {
      case CURRENT -> {
        if (second == 0x03) {
          yield "scheduled_deletion";
        }
        EntityKind kind = key.length > 2 ? EntityKind.ofTag(key[2] & 0xff) : null;
        yield kind == null ? "unknown" : kind.label();
      }
      case HISTORY -> {
        EntityKind kind = EntityKind.ofTag(second);
        yield kind == null ? "unknown" : kind.label();
      }
      case INLINE ->
          switch (second) {
            case 0x02 -> "arrow_schema";
            case 0x03 -> "live_record";
            case 0x04 -> "archived_record";
            case 0x05 -> "file_delete_table_marker";
            case 0x06 -> "chunk_range";
            case 0x07 -> "schema_dropped";
            case 0x08 -> "chunk_locator";
            case 0x09 -> "row_tombstone";
            default -> "unknown";
          };
      case INDEX ->
          switch (second) {
            case 0x02 -> "unique_entry";
            case 0x03 -> "entry";
            default -> "unknown";
          };
      default -> "";
    };
  }
}
