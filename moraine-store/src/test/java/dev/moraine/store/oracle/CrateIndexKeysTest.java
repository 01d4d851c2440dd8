package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.index.IndexKeyEncoder;
import dev.moraine.core.index.IndexKeyValue;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.value.IndexEntryValues;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.ReaderMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link IndexKeyEncoder} against the keys the Rust crate writes: {@code moraine-oracle
 * write-index-matrix} creates, through the crate's own index API, an index per case of the key
 * encoding (every integer width signed and unsigned at its extremes, floats with infinities, both
 * zeros and several NaN patterns, booleans, text and blobs with the bytes {@code 00 01 fe ff},
 * dates and timestamps, ASC and DESC, NULLS FIRST and LAST, unique indexes with NULLs, a composite
 * key) and prints the entries it gave the crate. Java encodes the same entries from the index
 * definitions it reads and must produce every {@code 07} key and value of the store, byte for byte,
 * and no other.
 */
class CrateIndexKeysTest {
  @TempDir Path temp;

  @Test
  void everyKeyTheCrateWrote_isTheKeyJavaEncodes() throws Exception {
    RustOracle oracle = RustOracle.locate();
    Path lake = temp.resolve("matrix");
    JsonNode matrix = JsonTrees.parse(oracle.run("write-index-matrix", lake.toString()));
    HexFormat hex = HexFormat.of();
    SortedMap<String, String> expected = new TreeMap<>();
    try (KvReader reader = Lakes.provider(lake).openReader(ReaderMode.followLatest());
        ReadOnlyCatalog catalog = Catalog.openReadOnly(reader, CatalogOptions.defaults())) {
      CatalogSnapshot head = catalog.snapshot();
      SchemaInfo schema =
          head.schemas().stream()
              .filter(s -> s.name().equals(matrix.get("schema").asText()))
              .findFirst()
              .orElseThrow();
      TableInfo table =
          head.tables().stream()
              .filter(
                  t ->
                      t.schemaId() == schema.schemaId()
                          && t.name().equals(matrix.get("table").asText()))
              .findFirst()
              .orElseThrow();
      List<IndexInfo> indexes = head.indexes(table.tableId());
      assertEquals(matrix.get("indexes").size(), indexes.size());
      for (JsonNode spec : matrix.get("indexes")) {
        IndexInfo index =
            indexes.stream()
                .filter(i -> i.name().equals(spec.get("name").asText()))
                .findFirst()
                .orElseThrow();
        assertEquals(spec.get("unique").asBoolean(), index.unique(), index.name());
        for (JsonNode entry : spec.get("entries")) {
          List<IndexKeyValue> values = new ArrayList<>();
          entry.get("values").forEach(v -> values.add(IndexJson.value(v)));
          long rowId = entry.get("row_id").asLong();
          IndexEntryKey key =
              IndexKeyEncoder.entryKey(index, IndexKeyEncoder.canonical(index, values), rowId);
          byte[] value =
              key instanceof IndexEntryKey.Unique
                  ? IndexEntryValues.uniqueRow(rowId)
                  : IndexEntryValues.multi();
          String previous = expected.put(hex.formatHex(KeyCodec.encode(key)), hex.formatHex(value));
          assertEquals(null, previous, "two entries of " + index.name() + " share a key");
        }
      }
    }
    SortedMap<String, String> written = new TreeMap<>();
    Lakes.contents(lake)
        .forEach(
            (k, v) -> {
              if (k.startsWith("07")) {
                written.put(k, v);
              }
            });
    assertFalse(written.isEmpty(), "the crate wrote index entries");
    assertEquals(expected, written);
  }
}
