package dev.moraine.core.verb;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.FileIndexValues;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.index.InlinedIndexValues;
import dev.moraine.core.inline.InlineRowsReader;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.IndexValue;
import dev.moraine.core.view.Names;
import dev.moraine.core.view.Records;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.List;
import java.util.TreeSet;

/**
 * Creating and dropping equality indexes (RFC 0002 §10.3), as the Rust crate's {@code create_index}
 * and {@code drop_index} write them: the definition record (its id from {@code next_catalog_id},
 * ascending and NULLS LAST, ready at once), an alteration of the table ({@code altered_table}, a
 * {@code schema_versions} row), and for a creation the entries of every live row, derived from the
 * rows' values as the other verbs derive them (inlined rows from their chunks, data-file rows
 * through the catalog's {@link FileIndexValues}); a drop leaves the entries for the crate's
 * maintenance sweep, which reclaims the entries of indexes no live definition names. Every check
 * runs before anything is staged.
 *
 * <p>Confined to the thread running the closure, like {@link VerbState}.
 */
public final class IndexVerbs {
  private final VerbState s;
  private final InlineRun run;

  public IndexVerbs(VerbState state, InlineRun run) {
    this.s = state;
    this.run = run;
  }

  public long create(long tableId, String name, List<Long> columnIds, boolean unique) {
    s.requireTable(tableId);
    Names.nonEmpty("index name", name);
    if (columnIds == null || columnIds.isEmpty()) {
      throw new InvalidArgumentException("index " + name + " needs at least one column");
    }
    List<IndexInfo> live = IndexGuard.liveIndexes(s, tableId);
    if (live.stream().anyMatch(i -> i.name().equals(name))) {
      throw new AlreadyExistsException(
          "table " + Long.toUnsignedString(tableId) + " already has an index named " + name);
    }
    List<ColumnValue> all = s.columnRecords(tableId);
    for (Long id : columnIds) {
      ColumnValue column =
          all.stream()
              .filter(c -> id != null && c.getColumnId() == id && !c.hasParentColumn())
              .findFirst()
              .orElseThrow(
                  () ->
                      new NotFoundException(
                          ErrorCode.NOT_FOUND,
                          "column "
                              + id
                              + " is not a live top-level column of table "
                              + Long.toUnsignedString(tableId)));
      if (!InlinedIndexValues.indexable(column.getColumnType())) {
        throw new InvalidArgumentException(
            "column "
                + column.getColumnName()
                + " is "
                + column.getColumnType()
                + ", which no equality index takes");
      }
    }
    refuseRowsChangedByThisCommit(tableId, name);
    long indexId = s.nextCatalogId;
    IndexValue value =
        IndexValue.newBuilder()
            .setIndexId(indexId)
            .setTableId(tableId)
            .setBeginSnapshot(s.newSnapshotId)
            .setIndexName(name)
            .addAllColumnIds(columnIds)
            .setUnique(unique)
            .build();
    IndexInfo index = Records.index(value);
    IndexUpkeep.Derived backfill = backfill(tableId, index, all);
    s.indexes.check(backfill);
    // Every check is done; from here on the verb only stages.
    s.nextCatalogId++;
    s.staged.put(new EntityKey.IndexDefinition(tableId, indexId), value);
    s.altered(DuckLakeOperation.CREATE_INDEX, tableId);
    s.indexes.take(backfill);
    return indexId;
  }

  public void drop(long tableId, String name) {
    s.requireTable(tableId);
    IndexInfo index =
        IndexGuard.liveIndexes(s, tableId).stream()
            .filter(i -> i.name().equals(name))
            .findFirst()
            .orElseThrow(
                () ->
                    new NotFoundException(
                        ErrorCode.NOT_FOUND,
                        "table "
                            + Long.toUnsignedString(tableId)
                            + " has no live index named "
                            + name));
    s.staged.delete(new EntityKey.IndexDefinition(tableId, index.indexId()));
    s.altered(DuckLakeOperation.DROP_INDEX, tableId);
  }

  /**
   * Refuses an index on a table whose rows this commit already changed: the backfill reads the
   * premise's rows, and the changes staged before it would go without entries.
   */
  private void refuseRowsChangedByThisCommit(long tableId, String name) {
    boolean changed =
        run.insertedVersions.containsKey(tableId)
            || run.deletedFrom.contains(tableId)
            || run.flushed.contains(tableId);
    for (StagedEntities.Change c : s.staged.changes()) {
      EntityKey e = c.entity();
      changed |=
          (e instanceof EntityKey.DataFile f && f.tableId() == tableId)
              || (e instanceof EntityKey.DeleteFile d && d.tableId() == tableId);
    }
    if (changed) {
      throw new InvalidArgumentException(
          "this commit already changed the rows of table "
              + Long.toUnsignedString(tableId)
              + "; create index "
              + name
              + " before the rows change, or in a commit of its own");
    }
  }

  /**
   * The entries of every row of the table live at the premise: its inlined rows, read from their
   * chunks, and the rows of its live data files that no delete file and no inline deletion names,
   * read through the catalog's {@link FileIndexValues}.
   */
  private IndexUpkeep.Derived backfill(long tableId, IndexInfo index, List<ColumnValue> all) {
    long at = s.premiseRecord.getSnapshotId();
    List<InlinedRows.Row> inlined =
        s.staged.premise().loadFor(v -> InlineRowsReader.read(v, tableId, at)).rows();
    IndexUpkeep.Derived entries =
        s.indexes.additionsOfRows(tableId, List.of(index), all, inlined, "createIndex");
    InlineTableState premise = run.premiseState(tableId);
    for (DataFileValue file : s.dataFileRecords(tableId)) {
      if (file.getRecordCount() == 0) {
        continue;
      }
      FileIndexValues reader =
          s.fileIndexValues.orElseThrow(
              () ->
                  new InvalidArgumentException(
                      "table "
                          + Long.toUnsignedString(tableId)
                          + " has rows in data files, which an index is backfilled from: open the"
                          + " catalog with CatalogOptions.withFileIndexValues"));
      TreeSet<Long> deleted = new TreeSet<>();
      for (DeleteFileValue d : s.deleteFileRecords(tableId)) {
        if (d.getDataFileId() == file.getDataFileId()) {
          for (long p : reader.deletedPositions(s.premiseSnapshot, Records.deleteFile(d))) {
            deleted.add(p);
          }
        }
      }
      for (List<Long> k : premise.fileDeletes.keySet()) {
        if (k.get(0) == file.getDataFileId()) {
          deleted.add(k.get(1));
        }
      }
      long[] positions = new long[Math.toIntExact(file.getRecordCount() - deleted.size())];
      int n = 0;
      for (long p = 0; p < file.getRecordCount(); p++) {
        if (!deleted.contains(p)) {
          positions[n++] = p;
        }
      }
      entries =
          IndexUpkeep.both(
              entries,
              s.indexes.readFileRows(
                  tableId, List.of(index), Records.dataFile(file), positions, true, "createIndex"));
    }
    return entries;
  }
}
