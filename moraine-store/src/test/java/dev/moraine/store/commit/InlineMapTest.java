package dev.moraine.store.commit;

import static dev.moraine.store.commit.InlineColumnFacts.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.InlinedRows;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;

/**
 * Inlined map columns on real SlateDB: the Arrow field a map's chunks carry (a map of non-null
 * {@code entries} holding {@code key} and {@code value}, each with its column's id), the values
 * read back through {@code typedValues()} in entry order, the key's and value's statistics (a null
 * or empty map adds nothing, a null value sets {@code contains_null}; none on the map column, RFC
 * 0004 §9), and the typed refusals, which write nothing.
 */
class InlineMapTest {
  /** Table 1: {@code id BIGINT, m MAP(VARCHAR, INTEGER)}. */
  private static final List<ColumnDef> COLUMNS =
      List.of(
          ColumnDef.of("id", "int64"),
          ColumnDef.nested(
              "m", "map", ColumnDef.of("key", "varchar"), ColumnDef.of("value", "int32")));

  /** An insertion-ordered map of the given keys and values; null values allowed. */
  private static Map<Object, Object> map(Object... keyValue) {
    Map<Object, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < keyValue.length; i += 2) {
      out.put(keyValue[i], keyValue[i + 1]);
    }
    return out;
  }

  @Test
  void mapRows_roundTrip_inEntryOrder_withKeyAndValueStatistics() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", COLUMNS));
      List<List<Object>> rows =
          List.of(
              row(1L, map("k", 5, "j", 1)), row(2L, null), row(3L, map()), row(4L, map("m", -2)));
      assertEquals(2, lake.catalog.commit(tx -> tx.insertInlined(1, rows)));
      CatalogSnapshot head = lake.catalog.snapshot();
      long m = InlineColumnFacts.columnId(head, "m");
      long key = InlineColumnFacts.columnId(head, "key");
      long value = InlineColumnFacts.columnId(head, "value");

      List<InlinedRows.Row> read = head.inlinedRows(1).rows();
      Field field = read.get(0).fields().get(1);
      assertEquals(new ArrowType.Map(false), field.getType());
      assertEquals(Long.toString(m), field.getMetadata().get("PARQUET:field_id"));
      Field entries = field.getChildren().get(0);
      assertEquals("entries", entries.getName());
      assertFalse(entries.isNullable());
      assertEquals(
          List.of("key " + key + " false", "value " + value + " true"),
          entries.getChildren().stream()
              .map(
                  f ->
                      f.getName()
                          + " "
                          + f.getMetadata().get("PARQUET:field_id")
                          + " "
                          + f.isNullable())
              .toList());

      Object first = read.get(0).typedValues().get(1);
      assertEquals(Map.of("k", 5L, "j", 1L), first);
      assertEquals(List.of("k", "j"), List.copyOf(((Map<?, ?>) first).keySet()));
      assertNull(read.get(1).typedValues().get(1));
      assertEquals(Map.of(), read.get(2).typedValues().get(1));
      assertEquals(Map.of("m", -2L), read.get(3).typedValues().get(1));

      // Null and empty maps add nothing: neither key nor value has a null yet.
      Map<Long, String> want = new TreeMap<>();
      want.put(1L, "false 1 4");
      want.put(key, "false j m");
      want.put(value, "false -2 5");
      assertEquals(want, InlineColumnFacts.stats(head));

      // A null value sets the value's contains_null, as stock DuckLake's MAP {'k': 5, 'j': NULL}.
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(5L, map("a", null)))));
      assertEquals(
          map("a", null),
          lake.catalog.snapshot().inlinedRows(1).rows().get(4).typedValues().get(1));
      want.put(1L, "false 1 5");
      want.put(key, "false a m");
      want.put(value, "true -2 5");
      assertEquals(want, InlineColumnFacts.stats(lake.catalog.snapshot()));
    }
  }

  @Test
  void mapValuesThatDoNotFit_areRefused_andWriteNothing() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(
          tx -> {
            tx.createTable(0, "t", COLUMNS);
            tx.createTable(
                0,
                "f",
                List.of(
                    ColumnDef.nested(
                        "mf",
                        "map",
                        ColumnDef.of("key", "int32"),
                        ColumnDef.of("value", "float64"))));
          });
      long head = lake.catalog.snapshot().snapshotId();
      Object[][] cases = {
        {1L, row(1L, "x"), "does not fit column 'm'", "a String for a map"},
        {1L, row(1L, List.of("k", 1)), "does not fit column 'm'", "a List for a map"},
        {1L, row(1L, map(1, 1)), "does not fit column 'key'", "an Integer key for varchar"},
        {1L, row(1L, map("k", "v")), "does not fit column 'value'", "a String value for int32"},
        {1L, row(1L, map(null, 1)), "null or NaN key", "a null key"},
        {2L, row(map(1, Double.NaN)), "NaN value", "a NaN value"},
      };
      for (Object[] c : cases) {
        @SuppressWarnings("unchecked")
        List<Object> bad = (List<Object>) c[1];
        InlineColumnFacts.assertInsertRefused(lake, (Long) c[0], bad, (String) c[2], c[3]);
      }
      assertEquals(head, lake.catalog.snapshot().snapshotId(), "no refusal minted a snapshot");
      assertTrue(lake.catalog.snapshot().inlinedRows(1).rows().isEmpty());
      assertTrue(lake.catalog.snapshot().columnStats(1).isEmpty());
    }
  }
}
