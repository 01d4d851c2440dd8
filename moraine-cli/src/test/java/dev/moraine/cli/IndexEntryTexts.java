package dev.moraine.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.index.IndexKeyEncoder;
import dev.moraine.core.index.IndexKeyValue;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvSnapshot;
import dev.moraine.core.kv.KvStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * An equality index's entries as texts ({@code <key hex>=<value hex>}), from what a store holds and
 * from what the Rust crate derives from a table's live rows, so that the two compare as sets.
 */
final class IndexEntryTexts {
  private static final HexFormat HEX = HexFormat.of();

  private IndexEntryTexts() {}

  /** The entries {@code store} holds under {@code index}. */
  static Set<String> stored(KvStore store, IndexInfo index) {
    Set<String> out = new TreeSet<>();
    try (KvSnapshot snapshot = store.snapshot();
        KvIterator it = snapshot.scan(KeyRange.prefix(new byte[] {0x07}))) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        if (KeyCodec.decode(kv.key()) instanceof IndexEntryKey e
            && e.indexId() == index.indexId()) {
          out.add(HEX.formatHex(kv.key()) + "=" + HEX.formatHex(kv.value()));
        }
      }
    }
    return out;
  }

  /**
   * The entries the crate derives for {@code index}, over {@code columns}, from the live inlined
   * rows and the live data files (read under {@code data}) of {@code schema.table} in the lake at
   * {@code lake}, encoded by Java.
   */
  static Set<String> cratesDerivation(
      Path scratch,
      Path lake,
      Path data,
      String schema,
      String table,
      IndexInfo index,
      String... columns)
      throws Exception {
    List<String> inline = new ArrayList<>(List.of("index-expect", lake.toString(), schema, table));
    inline.addAll(List.of(columns));
    List<String> files =
        new ArrayList<>(
            List.of("index-expect-files", lake.toString(), data.toString(), schema, table));
    files.addAll(List.of(columns));
    Set<String> out = new TreeSet<>();
    for (List<String> command : List.of(inline, files)) {
      for (JsonNode e : CrateOracle.json(scratch, command.toArray(String[]::new))) {
        List<IndexKeyValue> values = new ArrayList<>();
        e.get("values").forEach(v -> values.add(CrateOracle.value(v)));
        long rowId = e.get("row_id").asLong();
        IndexKeyEncoder.CanonicalKey canonical = IndexKeyEncoder.canonical(index, values);
        IndexEntryKey key = IndexKeyEncoder.entryKey(index, canonical, rowId);
        String value = key instanceof IndexEntryKey.Unique ? String.format("%016x", rowId) : "";
        out.add(HEX.formatHex(KeyCodec.encode(key)) + "=" + value);
      }
    }
    return out;
  }

  /**
   * {@code entries} without their index id (the key's bytes 2 to 9, after the subspace and the
   * shape), so that two indexes over the same columns compare.
   */
  static Set<String> withoutIndexId(Set<String> entries) {
    Set<String> out = new TreeSet<>();
    for (String e : entries) {
      out.add(e.substring(0, 4) + e.substring(20));
    }
    return out;
  }
}
