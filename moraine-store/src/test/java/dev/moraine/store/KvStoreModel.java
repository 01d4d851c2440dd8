package dev.moraine.store;

import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.ScanOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * The reference a {@link KvStoreModelTest} compares the real store with: two ordered maps in
 * unsigned lexicographic key order, what the writer has applied (what its reads see) and what is
 * durable (what survives the writer and what a checkpoint or a new reader sees).
 */
final class KvStoreModel {

  /** One put ({@code value} non-null) or delete ({@code value} null). */
  record Mutation(byte[] key, byte[] value) {
    static Mutation put(byte[] key, byte[] value) {
      return new Mutation(key, value);
    }

    static Mutation delete(byte[] key) {
      return new Mutation(key, null);
    }

    boolean isDelete() {
      return value == null;
    }

    @Override
    public String toString() {
      return isDelete() ? "del " + hex(key) : "put " + hex(key) + "=" + hexValue(value);
    }
  }

  private NavigableMap<byte[], byte[]> applied = emptyMap();
  private NavigableMap<byte[], byte[]> durable = emptyMap();

  /** An empty map in unsigned lexicographic key order. */
  static NavigableMap<byte[], byte[]> emptyMap() {
    return new TreeMap<>(Arrays::compareUnsigned);
  }

  /** A copy of {@code map} that nobody else can change. */
  static NavigableMap<byte[], byte[]> frozenCopy(NavigableMap<byte[], byte[]> map) {
    NavigableMap<byte[], byte[]> copy = emptyMap();
    copy.putAll(map);
    return Collections.unmodifiableNavigableMap(copy);
  }

  /** The applied state: what the writer's reads must see. Read-only. */
  NavigableMap<byte[], byte[]> applied() {
    return Collections.unmodifiableNavigableMap(applied);
  }

  /** The durable state. Read-only. */
  NavigableMap<byte[], byte[]> durable() {
    return Collections.unmodifiableNavigableMap(durable);
  }

  /** Applies {@code mutations} in order to the applied state (an atomic batch). */
  void apply(List<Mutation> mutations) {
    applyTo(applied, mutations);
  }

  /** Everything applied is now durable (a WAL flush, or a clean close). */
  void makeDurable() {
    durable = emptyMap();
    durable.putAll(applied);
  }

  /** {@code state}, an earlier applied state, is now durable. */
  void makeDurable(NavigableMap<byte[], byte[]> state) {
    durable = emptyMap();
    durable.putAll(state);
  }

  /** {@code base} with {@code mutations} applied in order, as a new map. */
  static NavigableMap<byte[], byte[]> overlay(
      NavigableMap<byte[], byte[]> base, List<Mutation> mutations) {
    NavigableMap<byte[], byte[]> result = emptyMap();
    result.putAll(base);
    applyTo(result, mutations);
    return result;
  }

  private static void applyTo(NavigableMap<byte[], byte[]> map, List<Mutation> mutations) {
    for (Mutation m : mutations) {
      if (m.isDelete()) {
        map.remove(m.key());
      } else {
        map.put(m.key().clone(), m.value().clone());
      }
    }
  }

  /**
   * The entries of {@code map} inside {@code range}, in {@code order}: the model's answer to a
   * scan. Built from the map's own sub-map views, independently of {@link KeyRange#contains}.
   */
  static NavigableMap<byte[], byte[]> view(
      NavigableMap<byte[], byte[]> map, KeyRange range, ScanOrder order) {
    byte[] start = range.start();
    byte[] end = range.end();
    NavigableMap<byte[], byte[]> sub;
    if (end != null && end.length == 0) {
      // No key is below the empty key.
      sub = emptyMap();
    } else if (start == null || start.length == 0) {
      sub = end == null ? map : map.headMap(end, false);
    } else {
      sub = end == null ? map.tailMap(start, true) : map.subMap(start, true, end, false);
    }
    return order == ScanOrder.DESCENDING ? sub.descendingMap() : sub;
  }

  /** The key set of {@code mutations}, in key order. */
  static NavigableMap<byte[], Boolean> keysOf(Collection<Mutation> mutations) {
    NavigableMap<byte[], Boolean> keys = new TreeMap<>(Arrays::compareUnsigned);
    for (Mutation m : mutations) {
      keys.put(m.key(), Boolean.TRUE);
    }
    return keys;
  }

  /** {@code key=value} lines of a model view, in its order. */
  static List<String> lines(Map<byte[], byte[]> view) {
    List<String> out = new ArrayList<>(view.size());
    view.forEach((key, value) -> out.add(line(key, value)));
    return out;
  }

  /** {@code key=value} lines of a scan, in the order it returned them; closes the iterator. */
  static List<String> lines(KvIterator iterator) {
    try (iterator) {
      List<String> out = new ArrayList<>();
      while (iterator.hasNext()) {
        KeyValue kv = iterator.next();
        out.add(line(kv.key(), kv.value()));
      }
      return out;
    }
  }

  static String line(byte[] key, byte[] value) {
    return hex(key) + "=" + hexValue(value);
  }

  static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  /** Values longer than this are shown abbreviated. */
  private static final int SHOWN_BYTES = 24;

  /**
   * A value in hex, or {@code null}/{@code ''} so that missing and empty values differ. A long
   * value shows its first bytes, its length and a CRC-32 of all of it, so that descriptions of
   * large writes stay short and two different values still read differently.
   */
  static String hexValue(byte[] value) {
    if (value == null) {
      return "null";
    }
    if (value.length == 0) {
      return "''";
    }
    if (value.length <= SHOWN_BYTES) {
      return hex(value);
    }
    CRC32 crc = new CRC32();
    crc.update(value);
    return hex(Arrays.copyOf(value, SHOWN_BYTES / 2))
        + "..("
        + value.length
        + " bytes, crc32 "
        + Long.toHexString(crc.getValue())
        + ")";
  }
}
