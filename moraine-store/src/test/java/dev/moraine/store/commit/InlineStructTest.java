package dev.moraine.store.commit;

import static dev.moraine.store.commit.InlineColumnFacts.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.InlinedRows;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;

/**
 * Inlined struct columns on real SlateDB: the Arrow field a struct's chunks carry (a struct field
 * whose children are its members, each with its own column id), the values read back through {@code
 * typedValues()}, the statistics (on the members only, a null struct counting as a null in each
 * member, RFC 0004 §9), and the typed refusals of values that do not fit and of nesting the encoder
 * does not write (a struct in a struct, a list or a map, a uuid member), which write nothing.
 */
class InlineStructTest {
  /** Table 1: {@code id BIGINT, s STRUCT(a INTEGER, b VARCHAR)}, column ids 1 to 4. */
  private static final List<ColumnDef> COLUMNS =
      List.of(
          ColumnDef.of("id", "int64"),
          ColumnDef.nested(
              "s", "struct", ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar")));

  /** A struct value with members in the given order; null values allowed. */
  private static Map<String, Object> struct(Object... nameValue) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      out.put((String) nameValue[i], nameValue[i + 1]);
    }
    return out;
  }

  @Test
  void structRows_roundTrip_withMemberStatistics() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", COLUMNS));
      // The members given out of column order and one left out: both come back in column order,
      // the one left out as null.
      Map<String, Object> reordered = struct("b", "y", "a", 7);
      Map<String, Object> partial = new HashMap<>(Map.of("b", "w"));
      List<List<Object>> rows =
          List.of(
              row(1L, struct("a", -3, "b", "x")),
              row(2L, null),
              row(3L, reordered),
              row(4L, partial),
              row(5L, struct("a", null, "b", null)));
      assertEquals(2, lake.catalog.commit(tx -> tx.insertInlined(1, rows)));
      CatalogSnapshot head = lake.catalog.snapshot();
      assertEquals("inlined_insert:1", head.snapshotLog().get(2).changesMade());
      long s = InlineColumnFacts.columnId(head, "s");
      long a = InlineColumnFacts.columnId(head, "a");
      long b = InlineColumnFacts.columnId(head, "b");

      List<InlinedRows.Row> read = head.inlinedRows(1).rows();
      assertEquals(5, read.size());
      Field field = read.get(0).fields().get(1);
      assertEquals(ArrowType.Struct.INSTANCE, field.getType());
      assertEquals(Long.toString(s), field.getMetadata().get("PARQUET:field_id"));
      assertEquals(
          List.of("a " + a + " Int(32, true)", "b " + b + " Utf8"),
          field.getChildren().stream()
              .map(
                  f ->
                      f.getName()
                          + " "
                          + f.getMetadata().get("PARQUET:field_id")
                          + " "
                          + f.getType())
              .toList());
      assertTrue(field.isNullable() && field.getChildren().stream().allMatch(Field::isNullable));

      List<Object> expected =
          List.of(
              struct("a", -3L, "b", "x"),
              "null",
              struct("a", 7L, "b", "y"),
              struct("a", null, "b", "w"),
              struct("a", null, "b", null));
      for (int r = 0; r < 5; r++) {
        List<Object> typed = read.get(r).typedValues();
        assertEquals(r + 1L, typed.get(0));
        Object cell = typed.get(1);
        if (r == 1) {
          assertNull(cell);
          continue;
        }
        assertEquals(expected.get(r), cell, "row " + r);
        assertEquals(List.of("a", "b"), List.copyOf(((Map<?, ?>) cell).keySet()), "row " + r);
      }

      // Statistics on the members only; the null struct and the null members make both
      // contains_null true.
      Map<Long, String> want = new TreeMap<>();
      want.put(1L, "false 1 5");
      want.put(a, "true -3 7");
      want.put(b, "true w y");
      assertEquals(want, InlineColumnFacts.stats(head));

      // A second insert merges into the members' statistics.
      lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(6L, struct("a", 100, "b", "a")))));
      want.put(1L, "false 1 6");
      want.put(a, "true -3 100");
      want.put(b, "true a y");
      assertEquals(want, InlineColumnFacts.stats(lake.catalog.snapshot()));
    }
  }

  @Test
  void structValuesThatDoNotFit_areRefused_andWriteNothing() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(tx -> tx.createTable(0, "t", COLUMNS));
      long head = lake.catalog.snapshot().snapshotId();
      Object[][] cases = {
        {"x", "does not fit column 's'", "a String for a struct"},
        {List.of(1, "x"), "does not fit column 's'", "a List for a struct"},
        {struct("a", 1, "z", 2), "has no member 'z'", "an unknown member"},
        {struct("A", 1), "has no member 'A'", "a member named in another case"},
        {Map.of(1, "x"), "has no member 1", "a key that is not a String"},
        {struct("a", "one"), "does not fit column 'a'", "a String for an int32 member"},
        {struct("a", 1L << 40), "does not fit column 'a'", "an int32 member out of range"},
        {struct("b", 5), "does not fit column 'b'", "an Integer for a varchar member"},
      };
      for (Object[] c : cases) {
        InlineColumnFacts.assertInsertRefused(lake, 1, row(1L, c[0]), (String) c[1], c[2]);
      }
      assertEquals(head, lake.catalog.snapshot().snapshotId(), "no refusal minted a snapshot");
      assertTrue(lake.catalog.snapshot().inlinedRows(1).rows().isEmpty());
      assertTrue(lake.catalog.snapshot().columnStats(1).isEmpty());
    }
  }

  @Test
  void nestingTheEncoderDoesNotSupport_isRefused_andWritesNothing() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(
          tx -> {
            tx.createTable(
                0,
                "deep",
                List.of(
                    ColumnDef.nested(
                        "s",
                        "struct",
                        ColumnDef.nested("t", "struct", ColumnDef.of("a", "int32")))));
            tx.createTable(
                0,
                "li",
                List.of(
                    ColumnDef.nested(
                        "l",
                        "list",
                        ColumnDef.nested("element", "struct", ColumnDef.of("a", "int32")))));
            tx.createTable(
                0,
                "m",
                List.of(
                    ColumnDef.nested(
                        "m",
                        "map",
                        ColumnDef.of("key", "varchar"),
                        ColumnDef.nested("value", "struct", ColumnDef.of("a", "int32")))));
            tx.createTable(
                0, "u", List.of(ColumnDef.nested("s", "struct", ColumnDef.of("u", "uuid"))));
          });
      long head = lake.catalog.snapshot().snapshotId();
      Object[][] cases = {
        {1L, struct("t", struct("a", 1)), "is a struct with member 't' of type struct"},
        {2L, List.of(struct("a", 1)), "is a list with member 'element' of type struct"},
        {3L, Map.of("k", struct("a", 1)), "is a map with member 'value' of type struct"},
        {4L, struct("u", java.util.UUID.randomUUID()), "is a struct with member 'u' of type uuid"},
      };
      for (Object[] c : cases) {
        long table = (Long) c[0];
        InvalidArgumentException e =
            lake.refused(
                InvalidArgumentException.class, tx -> tx.insertInlined(table, List.of(row(c[1]))));
        assertTrue(e.getMessage().contains((String) c[2]), table + ": " + e.getMessage());
        // The refusal holds for a null too: the column's type is what is refused.
        lake.refused(
            InvalidArgumentException.class,
            tx -> tx.insertInlined(table, List.of(row((Object) null))));
      }
      assertEquals(head, lake.catalog.snapshot().snapshotId(), "no refusal minted a snapshot");
    }
  }
}
