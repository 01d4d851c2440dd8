package dev.moraine.ducklake.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DuckLakeTablesTest {

  private static final List<Class<? extends DuckLakeRow>> ROW_TYPES =
      Arrays.stream(DuckLakeRow.class.getPermittedSubclasses())
          .<Class<? extends DuckLakeRow>>map(c -> c.asSubclass(DuckLakeRow.class))
          .toList();

  @Test
  void all_has28Tables_matchingDuckLakeDdl() throws IOException {
    List<String> expected;
    try (InputStream in = getClass().getResourceAsStream("/ducklake-1.0-metadata-ddl.txt")) {
      expected = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
    assertEquals(28, DuckLakeTables.ALL.size());
    assertEquals(expected, DuckLakeTables.ALL.stream().map(TableDef::createSql).toList());
  }

  @Test
  void everyRowRecord_componentsFollowColumnOrder() throws ReflectiveOperationException {
    assertEquals(28, ROW_TYPES.size());
    for (Class<? extends DuckLakeRow> type : ROW_TYPES) {
      TableDef def = (TableDef) type.getField("DEF").get(null);
      List<String> snake =
          Arrays.stream(type.getRecordComponents())
              .map(RecordComponent::getName)
              .map(DuckLakeTablesTest::snake)
              .toList();
      assertEquals(def.columnNames(), snake, type.getSimpleName());
      assertEquals(def.columnNames(), type.getField("COLUMNS").get(null));
      assertEquals(def.name(), type.getField("TABLE").get(null));
    }
  }

  @Test
  void values_inColumnOrder() {
    UUID uuid = UUID.randomUUID();
    SchemaRow main = new SchemaRow(0L, uuid, 0L, null, "main", "main/", true);
    assertEquals(Arrays.asList(0L, uuid, 0L, null, "main", "main/", true), main.values());
    assertEquals(SchemaRow.DEF, main.def());
  }

  @Test
  void notNullColumns_rejectNull() {
    assertThrows(NullPointerException.class, () -> new MetadataRow("version", null, null, null));
    assertThrows(NullPointerException.class, () -> new SnapshotRow(null, null, 0L, 1L, 0L));
  }

  @Test
  void selectSql_listsColumnsInOrder() {
    assertEquals(
        "SELECT table_id, record_count, next_row_id, file_size_bytes FROM lake.ducklake_table_stats",
        TableStatsRow.DEF.selectSql("lake"));
  }

  @Test
  void inlinedTableNames() {
    assertEquals("ducklake_inlined_data_3_2", DuckLakeTables.inlinedDataTableName(3, 2));
    assertEquals("ducklake_inlined_delete_3", DuckLakeTables.inlinedDeleteTableName(3));
  }

  private static String snake(String camel) {
    return camel.replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
  }
}
