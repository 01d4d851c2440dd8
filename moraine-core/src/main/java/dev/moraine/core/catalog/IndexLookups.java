package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.index.IndexKeyEncoder;
import dev.moraine.core.index.IndexKeyValue;
import dev.moraine.core.index.InlinedIndexValues;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.value.IndexEntryValues;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.view.CatalogReads;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.UUID;

/**
 * {@link ReadOnlyCatalog#lookupIndex}: the rows an equality index gives for one value, read from
 * its entries as the Rust crate's equality lookup reads them (RFC 0002 §5.5, §10): the unique entry
 * of a value with no NULL in it, else the run of non-unique entries whose key begins with the
 * value. Stateless.
 */
final class IndexLookups {
  private IndexLookups() {}

  static List<Long> rows(CatalogReads reads, long tableId, String indexName, List<?> values) {
    CatalogSnapshot head = CatalogSnapshot.of(reads.snapshot());
    if (indexName == null || values == null) {
      throw new InvalidArgumentException("an index lookup needs an index name and values");
    }
    IndexInfo index =
        head.indexByName(tableId, indexName)
            .orElseThrow(
                () ->
                    new NotFoundException(
                        ErrorCode.NOT_FOUND,
                        "table "
                            + Long.toUnsignedString(tableId)
                            + " has no live index named "
                            + indexName));
    if (index.buildState().isPresent() || index.poisoned().orElse(false)) {
      throw new InvalidArgumentException(
          "index "
              + indexName
              + " is "
              + index.buildState().orElse("poisoned")
              + ": it does not list every row yet, so it serves no lookups");
    }
    if (values.size() != index.columnIds().size()) {
      throw new InvalidArgumentException(
          values.size()
              + " values for the "
              + index.columnIds().size()
              + " columns of index "
              + indexName);
    }
    List<List<IndexKeyValue>> keys = new ArrayList<>();
    keys.add(new ArrayList<>());
    for (int i = 0; i < values.size(); i++) {
      long columnId = index.columnIds().get(i);
      ColumnInfo column =
          head.columns(tableId).stream()
              .filter(c -> c.columnId() == columnId)
              .findFirst()
              .orElseThrow(
                  () ->
                      new CorruptionException(
                          "index " + indexName + " names a column the table does not have"));
      List<IndexKeyValue> forms = forms(column.type(), values.get(i));
      List<List<IndexKeyValue>> longer = new ArrayList<>();
      for (List<IndexKeyValue> prefix : keys) {
        for (IndexKeyValue form : forms) {
          List<IndexKeyValue> k = new ArrayList<>(prefix);
          k.add(form);
          longer.add(k);
        }
      }
      keys = longer;
    }
    List<IndexKeyEncoder.CanonicalKey> canonicals = new ArrayList<>();
    for (List<IndexKeyValue> k : keys) {
      canonicals.add(IndexKeyEncoder.canonical(index, k));
    }
    TreeSet<Long> rows = new TreeSet<>(Long::compareUnsigned);
    reads.load(
        "looking up index " + indexName,
        v -> {
          for (IndexKeyEncoder.CanonicalKey canonical : canonicals) {
            collect(v, index, canonical, rows);
          }
          return null;
        });
    return List.copyOf(rows);
  }

  /**
   * The index forms {@code value} can be stored under: one, but two for a {@code uuid}, which an
   * inlined row holds as its text and a Parquet file as its 16 bytes (RFC 0002 §10).
   */
  private static List<IndexKeyValue> forms(String type, Object value) {
    IndexKeyValue inlined = InlinedIndexValues.of(type, value);
    if (value == null || !type.toLowerCase(Locale.ROOT).equals("uuid")) {
      return Arrays.asList(inlined);
    }
    UUID u = value instanceof UUID id ? id : UUID.fromString(value.toString());
    byte[] bytes = new byte[16];
    for (int i = 0; i < 8; i++) {
      bytes[i] = (byte) (u.getMostSignificantBits() >>> (56 - 8 * i));
      bytes[8 + i] = (byte) (u.getLeastSignificantBits() >>> (56 - 8 * i));
    }
    return List.of(inlined, new IndexKeyValue.Bytes(bytes));
  }

  private static void collect(
      KvReadView v, IndexInfo index, IndexKeyEncoder.CanonicalKey canonical, TreeSet<Long> rows) {
    IndexEntryKey key = IndexKeyEncoder.entryKey(index, canonical, 0);
    if (key instanceof IndexEntryKey.Unique unique) {
      byte[] stored = v.get(KeyCodec.encode(unique));
      if (stored != null) {
        rows.add(IndexEntryValues.decodeUniqueRow(unique, stored));
      }
      return;
    }
    // A non-unique key is the value's bytes, then the row id (8 bytes, raw): the value's entries
    // are the keys beginning with everything before the row id.
    byte[] full = KeyCodec.encode(key);
    byte[] prefix = Arrays.copyOf(full, full.length - 8);
    try (KvIterator it = v.scanPrefix(prefix)) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        if (KeyCodec.decode(kv.key()) instanceof IndexEntryKey.Multi m) {
          rows.add(m.rowId());
        }
      }
    }
  }
}
