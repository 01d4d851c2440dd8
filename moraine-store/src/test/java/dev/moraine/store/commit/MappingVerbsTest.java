package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.FileField;
import dev.moraine.core.catalog.model.MappingInfo;
import dev.moraine.core.catalog.model.MappingInfo.NameMapping;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.store.Concurrently;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Data files mapped by name: the records stock DuckLake 1.5.5 writes for {@code CALL
 * ducklake_add_data_files(...)} on a Parquet file without field ids (a mapping numbered from {@code
 * next_file_id}, then the file; {@code inserted_into_table}, no schema-version bump), the mapping's
 * rows in the file's order, and typed refusals that leave the store unchanged.
 */
class MappingVerbsTest {
  private static final List<FileField> D_FIELDS =
      List.of(
          FileField.of("i"),
          FileField.of("s"),
          FileField.nested("st", FileField.of("x"), FileField.of("y")));

  /** Table d (1) in main: i (1), s (2), st (3) with x (4) and y (5); at snapshot 1. */
  private static CommitLake lakeWithTable() {
    CommitLake lake = new CommitLake();
    lake.catalog.commit(
        tx ->
            tx.createTable(
                0,
                "d",
                List.of(
                    ColumnDef.of("i", "int32"),
                    ColumnDef.of("s", "varchar"),
                    ColumnDef.nested(
                        "st",
                        "struct",
                        ColumnDef.of("x", "int32"),
                        ColumnDef.of("y", "varchar")))));
    return lake;
  }

  private static NameMapping row(long id, String source, long target, Long parent) {
    return new NameMapping(
        id, source, target, parent == null ? OptionalLong.empty() : OptionalLong.of(parent), false);
  }

  @Test
  void aFileMappedByName_getsDuckLakesRecords() {
    try (CommitLake lake = lakeWithTable()) {
      var c = lake.catalog;
      long first =
          c.commit(
              tx ->
                  assertEquals(
                      1,
                      tx.registerDataFileByName(
                          1, NewDataFile.parquet("ext.parquet", 10, 708, 374), D_FIELDS)));
      CatalogSnapshot at = c.snapshot();
      assertEquals(2, first);
      assertEquals("inserted_into_table:1", at.info().changesMade());
      assertEquals(1, at.info().schemaVersion(), "no schema-version bump");
      assertEquals(2, at.info().nextFileId(), "the mapping and the file each take a file id");
      assertEquals(
          List.of(
              new MappingInfo(
                  1,
                  0,
                  "map_by_name",
                  List.of(
                      row(0, "i", 1, null),
                      row(1, "s", 2, null),
                      row(2, "st", 3, null),
                      row(3, "x", 4, 2L),
                      row(4, "y", 5, 2L)))),
          at.mappings(1));
      DataFileInfo f = at.dataFiles(1).get(0);
      assertEquals(1, f.dataFileId());
      assertEquals(OptionalLong.of(0), f.mappingId());
      assertEquals(OptionalLong.of(0), f.rowIdStart());

      // A file with the columns in another order, one missing, allowed as DuckLake's
      // allow_missing => true; its rows follow the file's order, with the field's own spelling.
      c.commit(
          tx ->
              tx.registerDataFileByName(
                  1,
                  NewDataFile.parquet("ext2.parquet", 5, 318, 212),
                  List.of(FileField.of("S"), FileField.of("i")),
                  true));
      at = c.snapshot();
      assertEquals(4, at.info().nextFileId());
      assertEquals(
          List.of(row(0, "S", 2, null), row(1, "i", 1, null)),
          at.mappings(1).get(1).nameMappings());
      DataFileInfo g = at.dataFiles(1).get(1);
      assertEquals(3, g.dataFileId());
      assertEquals(OptionalLong.of(2), g.mappingId());
      assertEquals(OptionalLong.of(10), g.rowIdStart());
      assertEquals(15, at.tableStats(1).orElseThrow().recordCount());
    }
  }

  @Test
  void theMappingIsOneUnversionedRecord_writtenOnce() {
    try (CommitLake lake = lakeWithTable()) {
      SortedMap<String, String> before = lake.contents();
      lake.catalog.commit(
          tx ->
              tx.registerDataFileByName(
                  1, NewDataFile.parquet("ext.parquet", 10, 708, 374), D_FIELDS));
      SortedMap<String, String> after = lake.contents();
      String mappingKey = "040210" + "0000000000000001" + "0000000000000000";
      assertTrue(after.containsKey(mappingKey), "the mapping's current key");
      assertTrue(!before.containsKey(mappingKey));
      long historyBefore = before.keySet().stream().filter(k -> k.startsWith("05")).count();
      long historyAfter = after.keySet().stream().filter(k -> k.startsWith("05")).count();
      assertEquals(historyBefore, historyAfter, "no history key for a new file and mapping");
    }
  }

  private static CommitBody byName(List<FileField> fields) {
    return tx -> tx.registerDataFileByName(1, NewDataFile.parquet("x.parquet", 1, 1, 1), fields);
  }

  @Test
  void badMappings_areRefusedTyped_andWriteNothing() {
    try (CommitLake lake = lakeWithTable()) {
      List<FileField> unknown = List.of(FileField.of("i"), FileField.of("nope"));
      lake.refused(NotFoundException.class, ErrorCode.NOT_FOUND, byName(unknown));
      List<FileField> unknownNested =
          List.of(
              FileField.of("i"),
              FileField.of("s"),
              FileField.nested("st", FileField.of("x"), FileField.of("z")));
      lake.refused(NotFoundException.class, ErrorCode.NOT_FOUND, byName(unknownNested));
      List<FileField> duplicate =
          List.of(FileField.of("i"), FileField.of("s"), FileField.of("I"), D_FIELDS.get(2));
      lake.refused(InvalidArgumentException.class, ErrorCode.INVALID_ARGUMENT, byName(duplicate));
      List<FileField> missing = List.of(FileField.of("i"), FileField.of("s"));
      lake.refused(InvalidArgumentException.class, ErrorCode.INVALID_ARGUMENT, byName(missing));
      List<FileField> missingNested =
          List.of(FileField.of("i"), FileField.of("s"), FileField.nested("st", FileField.of("x")));
      lake.refused(
          InvalidArgumentException.class, ErrorCode.INVALID_ARGUMENT, byName(missingNested));
      lake.refused(InvalidArgumentException.class, ErrorCode.INVALID_ARGUMENT, byName(List.of()));
      List<FileField> emptyName = List.of(FileField.of(""));
      lake.refused(InvalidArgumentException.class, ErrorCode.INVALID_ARGUMENT, byName(emptyName));
      lake.refused(
          NotFoundException.class,
          ErrorCode.NOT_FOUND,
          tx -> tx.registerDataFileByName(9, NewDataFile.parquet("x.parquet", 1, 1, 1), D_FIELDS));
      lake.refused(
          InvalidArgumentException.class,
          ErrorCode.INVALID_ARGUMENT,
          tx -> tx.registerDataFileByName(1, NewDataFile.parquet("x.parquet", -1, 1, 1), D_FIELDS));
    }
  }

  @Test
  void concurrentFilesMappedByName_allLand_eachNamingItsOwnMapping() throws Exception {
    try (CommitLake lake = lakeWithTable()) {
      Concurrently.run(
          8,
          thread -> {
            for (int i = 0; i < 3; i++) {
              int n = i;
              lake.catalog.commit(
                  tx ->
                      tx.registerDataFileByName(
                          1,
                          NewDataFile.parquet("t" + thread + "-" + n + ".parquet", 5, 50, 5),
                          D_FIELDS));
            }
          });
      CatalogSnapshot at = lake.catalog.snapshot();
      assertEquals(1 + 24, at.info().snapshotId());
      assertEquals(48, at.info().nextFileId(), "two file ids per commit, none lost or reused");
      List<DataFileInfo> files = new ArrayList<>(at.dataFiles(1));
      files.sort(Comparator.comparingLong(f -> f.rowIdStart().orElseThrow()));
      Set<Long> mappingIds = new HashSet<>();
      long nextRow = 0;
      for (DataFileInfo f : files) {
        assertEquals(nextRow, f.rowIdStart().orElseThrow(), "dense row ids");
        nextRow += f.recordCount();
        assertEquals(OptionalLong.of(f.dataFileId() - 1), f.mappingId());
        mappingIds.add(f.mappingId().getAsLong());
      }
      assertEquals(24, files.size());
      assertEquals(
          mappingIds,
          at.mappings(1).stream().map(MappingInfo::mappingId).collect(Collectors.toSet()),
          "one mapping per file, and no other");
    }
  }

  @Test
  void aRefusedMapping_consumesNoId() {
    try (CommitLake lake = lakeWithTable()) {
      lake.catalog.commit(
          tx -> {
            assertThrows(
                NotFoundException.class,
                () ->
                    tx.registerDataFileByName(
                        1,
                        NewDataFile.parquet("x.parquet", 1, 1, 1),
                        List.of(FileField.of("nope"))));
            assertThrows(
                InvalidArgumentException.class,
                () ->
                    tx.registerDataFileByName(
                        1, NewDataFile.parquet("x.parquet", -1, 1, 1), D_FIELDS));
            assertEquals(
                1,
                tx.registerDataFileByName(
                    1, NewDataFile.parquet("ext.parquet", 10, 708, 374), D_FIELDS));
          });
      CatalogSnapshot at = lake.catalog.snapshot();
      assertEquals(List.of(0L), at.mappings(1).stream().map(MappingInfo::mappingId).toList());
      assertEquals(2, at.info().nextFileId());
    }
  }
}
