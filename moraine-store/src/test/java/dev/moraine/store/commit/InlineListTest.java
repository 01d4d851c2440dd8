package dev.moraine.store.commit;

import static dev.moraine.store.commit.InlineColumnFacts.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.InlinedRows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;

/**
 * Inlined list columns on real SlateDB: the Arrow field a list's chunks carry (a list whose child
 * {@code l} is the element column with its id), the values read back through {@code typedValues()},
 * the element's statistics (a null or empty list adds nothing, a null element sets {@code
 * contains_null}; none on the list column, RFC 0004 §9), and the typed refusals, which write
 * nothing.
 */
class InlineListTest {
  /** Table 1: {@code id BIGINT, li INTEGER[], ls VARCHAR[]}. */
  private static final List<ColumnDef> COLUMNS =
      List.of(
          ColumnDef.of("id", "int64"),
          ColumnDef.nested("li", "list", ColumnDef.of("element", "int32")),
          ColumnDef.nested("ls", "list", ColumnDef.of("element", "varchar")));

  private static List<Object> list(Object... values) {
    return new ArrayList<>(Arrays.asList(values));
  }

  /** The id of the element column of list column {@code list}. */
  private static long elementOf(CatalogSnapshot s, String list) {
    long listId =
        s.columns(1).stream()
            .filter(c -> c.name().equals(list))
            .mapToLong(ColumnInfo::columnId)
            .findFirst()
            .orElseThrow();
    return s.columns(1).stream()
        .filter(c -> c.parentColumn().isPresent() && c.parentColumn().getAsLong() == listId)
        .mapToLong(ColumnInfo::columnId)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void listRows_roundTrip_withElementStatistics() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", COLUMNS));
      List<List<Object>> rows =
          List.of(
              row(1L, list(3, -2, 9), list("b", "a")),
              row(2L, null, list()),
              row(3L, list(), null),
              row(4L, list(7), list("c")));
      assertEquals(2, lake.catalog.commit(tx -> tx.insertInlined(1, rows)));
      CatalogSnapshot head = lake.catalog.snapshot();
      long li = elementOf(head, "li");
      long ls = elementOf(head, "ls");

      List<InlinedRows.Row> read = head.inlinedRows(1).rows();
      assertEquals(4, read.size());
      Field field = read.get(0).fields().get(1);
      assertEquals(ArrowType.List.INSTANCE, field.getType());
      Field child = field.getChildren().get(0);
      assertEquals(
          "l " + li + " Int(32, true)",
          child.getName()
              + " "
              + child.getMetadata().get("PARQUET:field_id")
              + " "
              + child.getType());
      assertEquals(List.of(3L, -2L, 9L), read.get(0).typedValues().get(1));
      assertEquals(List.of("b", "a"), read.get(0).typedValues().get(2));
      assertNull(read.get(1).typedValues().get(1));
      assertEquals(List.of(), read.get(1).typedValues().get(2));
      assertEquals(List.of(), read.get(2).typedValues().get(1));
      assertNull(read.get(2).typedValues().get(2));
      assertEquals(List.of(7L), read.get(3).typedValues().get(1));
      assertThrows(
          UnsupportedOperationException.class,
          () -> ((List<Object>) read.get(0).typedValues().get(1)).add(1L));

      // Null and empty lists add nothing to the elements: neither has a null yet.
      Map<Long, String> want = new TreeMap<>();
      want.put(1L, "false 1 4");
      want.put(li, "false -2 9");
      want.put(ls, "false a c");
      assertEquals(want, InlineColumnFacts.stats(head));

      // A null element sets contains_null.
      lake.catalog.commit(
          tx -> tx.insertInlined(1, List.of(row(5L, list(null, 100), list((Object) null)))));
      List<Object> typed = lake.catalog.snapshot().inlinedRows(1).rows().get(4).typedValues();
      assertEquals(Arrays.asList(null, 100L), typed.get(1));
      assertEquals(Arrays.asList((Object) null), typed.get(2));
      want.put(1L, "false 1 5");
      want.put(li, "true -2 100");
      want.put(ls, "true a c");
      assertEquals(want, InlineColumnFacts.stats(lake.catalog.snapshot()));
    }
  }

  @Test
  void listValuesThatDoNotFit_areRefused_andWriteNothing() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(
          tx -> {
            tx.createTable(0, "t", COLUMNS);
            tx.createTable(
                0,
                "f",
                List.of(ColumnDef.nested("lf", "list", ColumnDef.of("element", "float64"))));
          });
      long head = lake.catalog.snapshot().snapshotId();
      Object[][] cases = {
        {1L, row(1L, "x", null), "does not fit column 'li'", "a String for a list"},
        {1L, row(1L, Map.of("a", 1), null), "does not fit column 'li'", "a Map for a list"},
        {1L, row(1L, list("x"), null), "does not fit column 'element'", "a String element"},
        {1L, row(1L, list(1L << 40), null), "does not fit column 'element'", "out of range"},
        {1L, row(1L, null, list(5)), "does not fit column 'element'", "an Integer for varchar"},
        {2L, row(list(1.5, Double.NaN)), "NaN element of list column 'lf'", "a NaN element"},
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
