package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.model.MacroInfo;
import dev.moraine.core.catalog.model.NewMacro;
import dev.moraine.core.catalog.model.SnapshotInfo;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Scalar and table macros: the records stock DuckLake 1.5.5 mints for CREATE MACRO and DROP MACRO
 * (ChangeKindScript's texts), the macro records the keyspace keeps, and typed refusals that leave
 * the store unchanged.
 */
class MacroVerbsTest {
  private static final NewMacro PLUS_ONE =
      NewMacro.of(NewMacro.Implementation.scalar("x + 1", NewMacro.Parameter.of("x", "unknown")));
  private static final NewMacro ONE_ROW =
      NewMacro.of(NewMacro.Implementation.table("SELECT 1 AS y"));

  private static void assertRecord(
      CatalogSnapshot at, String changes, long schemaVersion, long nextCatalogId) {
    SnapshotInfo info = at.info();
    assertEquals(changes, info.changesMade(), "changes_made of " + info.snapshotId());
    assertEquals(schemaVersion, info.schemaVersion(), "schema_version of " + info.snapshotId());
    assertEquals(nextCatalogId, info.nextCatalogId(), "next_catalog_id of " + info.snapshotId());
    assertEquals(List.of(), info.schemaChangedTableIds(), "macros write no schema_versions row");
  }

  @Test
  void createAndDrop_mintDuckLakesRecords_andTimeTravelShowsEachMacro() {
    try (CommitLake lake = new CommitLake()) {
      var c = lake.catalog;
      c.commit(tx -> tx.createSchema("s1"));
      long[] ids = new long[2];
      c.commit(tx -> ids[0] = tx.createMacro(1, "m", PLUS_ONE));
      assertEquals(2, ids[0]);
      assertRecord(c.snapshot(), "created_scalar_macro:\"s1\".\"m\"", 2, 3);
      c.commit(tx -> ids[1] = tx.createMacro(1, "tm", ONE_ROW));
      assertEquals(3, ids[1]);
      assertRecord(c.snapshot(), "created_table_macro:\"s1\".\"tm\"", 3, 4);
      c.commit(tx -> tx.dropMacro(2));
      assertRecord(c.snapshot(), "dropped_scalar_macro:2", 4, 4);
      c.commit(tx -> tx.dropMacro(3));
      assertRecord(c.snapshot(), "dropped_table_macro:3", 5, 4);

      MacroInfo m = c.snapshotAt(2).macro(2).orElseThrow();
      assertEquals("m", m.name());
      assertEquals(1, m.schemaId());
      assertEquals(2, m.beginSnapshot());
      assertEquals(
          List.of(
              new MacroInfo.Implementation(
                  0,
                  "duckdb",
                  "x + 1",
                  "scalar",
                  List.of(
                      new MacroInfo.Parameter(0, "x", "unknown", Optional.empty(), "unknown")))),
          m.implementations());
      assertEquals(
          "table", c.snapshotAt(3).macro(3).orElseThrow().implementations().get(0).macroType());
      assertTrue(c.snapshotAt(4).macro(2).isEmpty());
      assertTrue(c.snapshotAt(4).macro(3).isPresent());
      assertTrue(c.snapshotAt(5).macros().isEmpty());
    }
  }

  @Test
  void manyImplementationsAndDefaults_areKeptInOrder() {
    try (CommitLake lake = new CommitLake()) {
      NewMacro overloaded =
          new NewMacro(
              List.of(
                  NewMacro.Implementation.scalar("a", NewMacro.Parameter.of("a", "unknown")),
                  new NewMacro.Implementation(
                      "duckdb",
                      "a + b",
                      "scalar",
                      List.of(
                          NewMacro.Parameter.of("a", "unknown"),
                          new NewMacro.Parameter("b", "unknown", Optional.of("5"), "INTEGER")))));
      lake.catalog.commit(tx -> tx.createMacro(0, "f", overloaded));
      MacroInfo m = lake.catalog.snapshot().macroByName(0, "f").orElseThrow();
      assertEquals(2, m.implementations().size());
      assertEquals(1, m.implementations().get(1).implId());
      MacroInfo.Parameter b = m.implementations().get(1).parameters().get(1);
      assertEquals(new MacroInfo.Parameter(1, "b", "unknown", Optional.of("5"), "INTEGER"), b);
    }
  }

  @Test
  void badMacros_areRefusedTyped_andWriteNothing() {
    try (CommitLake lake = new CommitLake()) {
      lake.catalog.commit(
          tx -> {
            tx.createSchema("s");
            tx.createMacro(0, "m", PLUS_ONE);
          });
      var invalid = InvalidArgumentException.class;
      lake.refused(
          NotFoundException.class, ErrorCode.NOT_FOUND, tx -> tx.createMacro(9, "x", PLUS_ONE));
      lake.refused(NotFoundException.class, ErrorCode.NOT_FOUND, tx -> tx.dropMacro(99));
      lake.refused(
          AlreadyExistsException.class,
          ErrorCode.ALREADY_EXISTS,
          tx -> tx.createMacro(0, "M", PLUS_ONE));
      lake.refused(invalid, ErrorCode.INVALID_ARGUMENT, tx -> tx.createMacro(0, "", PLUS_ONE));
      lake.refused(
          invalid,
          ErrorCode.INVALID_ARGUMENT,
          tx -> tx.createMacro(0, "x", new NewMacro(List.of())));
      lake.refused(
          invalid,
          ErrorCode.INVALID_ARGUMENT,
          tx ->
              tx.createMacro(
                  0,
                  "x",
                  new NewMacro(
                      List.of(
                          NewMacro.Implementation.scalar("1"),
                          NewMacro.Implementation.table("SELECT 1")))));
      lake.refused(
          invalid,
          ErrorCode.INVALID_ARGUMENT,
          tx ->
              tx.createMacro(
                  0,
                  "x",
                  NewMacro.of(new NewMacro.Implementation("duckdb", "1", "window", List.of()))));
      lake.refused(
          invalid,
          ErrorCode.INVALID_ARGUMENT,
          tx -> tx.createMacro(0, "x", NewMacro.of(NewMacro.Implementation.scalar(""))));
      // A schema holding a macro, even one created in the same closure, cannot be dropped.
      lake.refused(
          invalid,
          ErrorCode.INVALID_ARGUMENT,
          tx -> {
            long s = tx.schemaByName("s").orElseThrow().schemaId();
            tx.createMacro(s, "held", ONE_ROW);
            tx.dropSchema(s);
          });
      // The same name under the other type is a different macro, as in DuckDB.
      lake.catalog.commit(tx -> tx.createMacro(0, "m", ONE_ROW));
      assertEquals(2, lake.catalog.snapshot().macrosIn(0).size());
    }
  }
}
