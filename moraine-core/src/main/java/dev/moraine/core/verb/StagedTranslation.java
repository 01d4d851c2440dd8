package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.IndexedTableException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.view.SnapshotView;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.changes.ChangesMade;
import dev.moraine.ducklake.rows.ColumnMappingRow;
import dev.moraine.ducklake.rows.ColumnRow;
import dev.moraine.ducklake.rows.DataFileRow;
import dev.moraine.ducklake.rows.DeleteFileRow;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.FileColumnStatsRow;
import dev.moraine.ducklake.rows.FilePartitionValueRow;
import dev.moraine.ducklake.rows.FilesScheduledForDeletionRow;
import dev.moraine.ducklake.rows.InlinedDataTablesRow;
import dev.moraine.ducklake.rows.NameMappingRow;
import dev.moraine.ducklake.rows.SchemaRow;
import dev.moraine.ducklake.rows.SchemaVersionsRow;
import dev.moraine.ducklake.rows.SnapshotChangesRow;
import dev.moraine.ducklake.rows.SnapshotRow;
import dev.moraine.ducklake.rows.SortExpressionRow;
import dev.moraine.ducklake.rows.SortInfoRow;
import dev.moraine.ducklake.rows.TableColumnStatsRow;
import dev.moraine.ducklake.rows.TableRow;
import dev.moraine.ducklake.rows.TableStatsRow;
import dev.moraine.ducklake.rows.ViewRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The staged-row door's translation (RFC 0006): DuckLake's row operations for one commit, made
 * against the snapshot it read, turned into the records of the keyed layout, row for row, with
 * DuckLake's ids and counters as given. The shapes it takes are listed in RFC 0006 §13: files
 * added, ended, merged and their delete files replaced, tables created, altered and dropped, and
 * options; rows of any other shape are refused. Rows authored against an older snapshot are first
 * moved onto the head by {@link StagedRebase}. Every check runs before anything is staged that
 * could land: a refusal throws out of the commit's work, and nothing it staged is written. Confined
 * to the thread running it.
 */
public final class StagedTranslation {
  private final SnapshotView premise;
  private final SnapshotValue premiseRecord;

  /**
   * The verbs' state over the premise: its entities are where the translation stages, and its
   * inline writes where the inlined rows' verbs write.
   */
  private final VerbState state;

  private final StagedEntities staged;
  private final StagedFileRemovals removals;
  private StagedSchemaChanges creation;
  private StagedBase liveness;
  private StagedFileRows fileRows;

  /** The snapshot the commit mints. */
  private long n;

  private StagedTranslation(
      SnapshotView premise,
      SnapshotValue premiseRecord,
      CatalogOptions options,
      CatalogSnapshot premiseSnapshot) {
    this.premise = premise;
    this.premiseRecord = premiseRecord;
    this.state = new VerbState(premise, premiseRecord, options, premiseSnapshot);
    this.staged = state.staged;
    this.removals = new StagedFileRemovals(staged);
  }

  /**
   * Translates {@code rows} against the premise.
   *
   * @throws CommitConflictException if the rows were authored against a snapshot older than the
   *     premise, or their snapshot does not advance the premise's head: the race is DuckLake's to
   *     re-drive
   * @throws InvalidArgumentException if a row is malformed, repeats a key, names an id outside the
   *     range its counter gave, or belongs to a table this door does not take yet
   * @throws NotFoundException if a row names a table, column or file the base does not hold
   * @throws IndexedTableException if a file goes into or out of a table with equality indexes
   */
  public static Draft translate(
      SnapshotView premise,
      SnapshotValue premiseRecord,
      StagedRows rows,
      CatalogOptions options,
      CatalogSnapshot premiseSnapshot) {
    if (rows == null) {
      throw new InvalidArgumentException("the staged rows must not be null");
    }
    try {
      return new StagedTranslation(premise, premiseRecord, options, premiseSnapshot).run(rows);
    } catch (NotFoundException gone) {
      if (Long.compareUnsigned(rows.baseSnapshotId(), premiseRecord.getSnapshotId()) < 0) {
        // Rows authored against an older snapshot name what a commit since took away: the race
        // is lost, and DuckLake's re-drive against the head decides what remains.
        throw new CommitConflictException(
            "commit conflict: the rows were authored against snapshot "
                + Long.toUnsignedString(rows.baseSnapshotId())
                + " and "
                + gone.getMessage()
                + " at the head "
                + Long.toUnsignedString(premiseRecord.getSnapshotId()));
      }
      throw gone;
    }
  }

  private Draft run(StagedRows authored) {
    // Rows authored against an older snapshot are moved onto the head first, when they can be
    // (RFC 0006 §14); what follows checks and translates them as if authored against it.
    StagedRows rows = StagedRebase.onto(premise, premiseRecord, authored);
    long head = premiseRecord.getSnapshotId();
    long base = rows.baseSnapshotId();
    if (Long.compareUnsigned(base, head) > 0) {
      throw new InvalidArgumentException(
          "the rows were authored against snapshot "
              + Long.toUnsignedString(base)
              + ", past the head "
              + Long.toUnsignedString(head));
    }
    if (base != head) {
      throw new CommitConflictException(
          "the rows were authored against snapshot "
              + Long.toUnsignedString(base)
              + " but commit "
              + Long.toUnsignedString(head)
              + " landed since: a conflict with a concurrent commit; read the catalog again");
    }
    if (StagedOptions.onlyOptions(rows.ops()) && rows.inlined().isEmpty()) {
      StagedOptions.apply(staged, rows.ops());
      return new Draft(
          staged.changes(),
          List.of(),
          ChangeSet.empty(),
          List.of(),
          List.of(),
          false,
          premiseRecord.getNextCatalogId(),
          premiseRecord.getNextFileId(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          new InlineWrites(),
          new dev.moraine.core.kv.WriteBatch(),
          new CompactionWrites(),
          MaintenanceWrites.NONE);
    }
    SnapshotRow snapshot = null;
    SnapshotChangesRow changes = null;
    List<DataFileRow> files = new ArrayList<>();
    List<DeleteFileRow> deletes = new ArrayList<>();
    List<FilePartitionValueRow> partitionValues = new ArrayList<>();
    List<FileColumnStatsRow> fileStats = new ArrayList<>();
    List<TableStatsRow> tableStats = new ArrayList<>();
    List<TableColumnStatsRow> columnStats = new ArrayList<>();
    List<StagedRows.End> ends = new ArrayList<>();
    List<StagedRows.Delete> removals = new ArrayList<>();
    List<StagedRows.Delete> mergeRemovals = new ArrayList<>();
    List<FilesScheduledForDeletionRow> schedules = new ArrayList<>();
    List<TableRow> newTables = new ArrayList<>();
    List<ColumnRow> newColumns = new ArrayList<>();
    List<StagedRows.End> columnEnds = new ArrayList<>();
    List<StagedRows.End> tableEnds = new ArrayList<>();
    List<StagedRows.End> partitionEnds = new ArrayList<>();
    List<dev.moraine.ducklake.rows.PartitionInfoRow> newPartitions = new ArrayList<>();
    List<dev.moraine.ducklake.rows.PartitionColumnRow> partitionColumns = new ArrayList<>();
    List<SchemaVersionsRow> newVersions = new ArrayList<>();
    List<InlinedDataTablesRow> newInlinedTables = new ArrayList<>();
    List<InlinedDataTablesRow> droppedInlinedTables = new ArrayList<>();
    List<SchemaRow> newSchemas = new ArrayList<>();
    List<ViewRow> newViews = new ArrayList<>();
    List<StagedRows.End> schemaEnds = new ArrayList<>();
    List<StagedRows.End> viewEnds = new ArrayList<>();
    List<dev.moraine.ducklake.rows.MacroRow> newMacros = new ArrayList<>();
    List<dev.moraine.ducklake.rows.MacroImplRow> macroImpls = new ArrayList<>();
    List<dev.moraine.ducklake.rows.MacroParametersRow> macroParameters = new ArrayList<>();
    List<StagedRows.End> macroEnds = new ArrayList<>();
    List<StagedRows.End> tagEnds = new ArrayList<>();
    List<DuckLakeRow> newTags = new ArrayList<>();
    List<StagedRows.End> sortEnds = new ArrayList<>();
    List<SortInfoRow> newSorts = new ArrayList<>();
    List<SortExpressionRow> sortExpressions = new ArrayList<>();
    List<ColumnMappingRow> newMappings = new ArrayList<>();
    List<NameMappingRow> nameMappings = new ArrayList<>();
    for (StagedRows.Op op : rows.ops()) {
      if (op == null) {
        throw new InvalidArgumentException("a staged row operation is null");
      }
      DuckLakeRow row = op.row();
      boolean insert = op instanceof StagedRows.Insert;
      if (row instanceof SnapshotRow r && insert) {
        if (snapshot != null) {
          throw new InvalidArgumentException("the rows hold two ducklake_snapshot rows");
        }
        snapshot = r;
      } else if (row instanceof SnapshotChangesRow r && insert) {
        if (changes != null) {
          throw new InvalidArgumentException("the rows hold two ducklake_snapshot_changes rows");
        }
        changes = r;
      } else if (row instanceof DataFileRow r && insert) {
        files.add(r);
      } else if (row instanceof DeleteFileRow r && insert) {
        deletes.add(r);
      } else if (row instanceof FilePartitionValueRow r && insert) {
        partitionValues.add(r);
      } else if (row instanceof FileColumnStatsRow r && insert) {
        fileStats.add(r);
      } else if (row instanceof TableStatsRow r && insert) {
        tableStats.add(r);
      } else if (row instanceof TableColumnStatsRow r && insert) {
        columnStats.add(r);
      } else if (op instanceof StagedRows.End e
          && (row instanceof DataFileRow || row instanceof DeleteFileRow)) {
        ends.add(e);
      } else if (StagedMerges.isMergeRemoval(op)) {
        mergeRemovals.add((StagedRows.Delete) op);
      } else if (op instanceof StagedRows.Delete d && row instanceof DeleteFileRow) {
        removals.add(d);
      } else if (row instanceof FilesScheduledForDeletionRow r && insert) {
        schedules.add(r);
      } else if (row instanceof TableRow r && insert) {
        newTables.add(r);
      } else if (row instanceof ColumnRow r && insert) {
        newColumns.add(r);
      } else if (row instanceof ColumnRow && op instanceof StagedRows.End e) {
        columnEnds.add(e);
      } else if (row instanceof TableRow && op instanceof StagedRows.End e) {
        tableEnds.add(e);
      } else if (row instanceof dev.moraine.ducklake.rows.PartitionInfoRow
          && op instanceof StagedRows.End e) {
        partitionEnds.add(e);
      } else if (row instanceof SchemaVersionsRow r && insert) {
        newVersions.add(r);
      } else if (row instanceof InlinedDataTablesRow r && insert) {
        newInlinedTables.add(r);
      } else if (row instanceof InlinedDataTablesRow r && op instanceof StagedRows.Delete) {
        droppedInlinedTables.add(r);
      } else if (row instanceof dev.moraine.ducklake.rows.PartitionInfoRow r && insert) {
        newPartitions.add(r);
      } else if (row instanceof dev.moraine.ducklake.rows.PartitionColumnRow r && insert) {
        partitionColumns.add(r);
      } else if (row instanceof dev.moraine.ducklake.rows.MacroRow r && insert) {
        newMacros.add(r);
      } else if (row instanceof dev.moraine.ducklake.rows.MacroImplRow r && insert) {
        macroImpls.add(r);
      } else if (row instanceof dev.moraine.ducklake.rows.MacroParametersRow r && insert) {
        macroParameters.add(r);
      } else if (row instanceof dev.moraine.ducklake.rows.MacroRow
          && op instanceof StagedRows.End e) {
        macroEnds.add(e);
      } else if (row instanceof SchemaRow r && insert) {
        newSchemas.add(r);
      } else if (row instanceof ViewRow r && insert) {
        newViews.add(r);
      } else if (row instanceof SchemaRow && op instanceof StagedRows.End e) {
        schemaEnds.add(e);
      } else if (row instanceof ViewRow && op instanceof StagedRows.End e) {
        viewEnds.add(e);
      } else if (StagedTags.isTagRow(row) && op instanceof StagedRows.End e) {
        tagEnds.add(e);
      } else if (StagedTags.isTagRow(row) && insert) {
        newTags.add(row);
      } else if (row instanceof SortInfoRow && op instanceof StagedRows.End e) {
        sortEnds.add(e);
      } else if (row instanceof SortInfoRow r && insert) {
        newSorts.add(r);
      } else if (row instanceof SortExpressionRow r && insert) {
        sortExpressions.add(r);
      } else if (row instanceof ColumnMappingRow r && insert) {
        newMappings.add(r);
      } else if (row instanceof NameMappingRow r && insert) {
        nameMappings.add(r);
      } else {
        throw new InvalidArgumentException(
            StagedRowChecks.describe(op)
                + " is not taken by the staged-row door yet: it takes the data-only commits that"
                + " add files (RFC 0006)");
      }
    }
    if (snapshot == null || changes == null) {
      throw new InvalidArgumentException(
          "a commit without its ducklake_snapshot and ducklake_snapshot_changes rows is taken by"
              + " the staged-row door for options, snapshot expiry and file cleanup only");
    }
    n = head + 1;
    creation = new StagedSchemaChanges(staged, n);
    liveness = new StagedBase(premise, creation);
    StagedMerges merges = new StagedMerges(staged, this.removals, liveness);
    StagedInlineFlush flush = new StagedInlineFlush(state, liveness);
    fileRows =
        new StagedFileRows(
            premise, premiseRecord, staged, this.removals, liveness, merges, flush, n);
    // Ends of partitionings go with their table's drop, or with a new partitioning of a live table
    // (SET or RESET PARTITIONED BY).
    Set<Long> droppedTables = new HashSet<>();
    tableEnds.forEach(e -> droppedTables.add(((TableRow) e.row()).tableId()));
    List<StagedRows.End> repartitioned =
        partitionEnds.stream()
            .filter(
                e ->
                    !droppedTables.contains(
                        ((dev.moraine.ducklake.rows.PartitionInfoRow) e.row()).tableId()))
            .toList();
    partitionEnds = new ArrayList<>(partitionEnds);
    partitionEnds.removeAll(repartitioned);
    boolean changesColumns =
        !repartitioned.isEmpty()
            || !newPartitions.isEmpty()
            || !newColumns.isEmpty()
            || !columnEnds.isEmpty()
            || !newVersions.isEmpty()
            || !tableEnds.isEmpty()
            || !schemaEnds.isEmpty()
            || !viewEnds.isEmpty()
            || !macroEnds.isEmpty()
            || !tagEnds.isEmpty()
            || !newTags.isEmpty()
            || !sortEnds.isEmpty();
    boolean createsEntries =
        !newTables.isEmpty()
            || !newSchemas.isEmpty()
            || !newViews.isEmpty()
            || !newPartitions.isEmpty()
            || !newMacros.isEmpty()
            || !newSorts.isEmpty();
    // The first inlined rows of a table without an inlined-data table register one, which bumps
    // the schema version by itself (stock DuckLake 1.5.5); one such table a commit, and in a
    // commit that changes no table's shape otherwise, is what the door takes so far.
    List<InlinedDataTablesRow> firstRegistrations =
        StagedInlinedRows.firstRegistrations(newInlinedTables, newTables, newVersions);
    if (!firstRegistrations.isEmpty()
        && (firstRegistrations.size() > 1 || createsEntries || changesColumns)) {
      throw new InvalidArgumentException(
          "the rows register the inlined-data tables of existing tables "
              + firstRegistrations
              + " beside other schema changes, or of several tables: the door takes one such"
              + " registration a commit, alone, so far");
    }
    SnapshotValue record =
        snapshotRecord(
            snapshot, changes, createsEntries, changesColumns || !firstRegistrations.isEmpty());
    ChangeSet changeSet = changeSet(changes.changesMade());
    StagedIds.requireDistinct(
        premiseRecord, record, newTables, newSchemas, newViews, newMacros, newPartitions, newSorts);
    // Schemas first (tables and views go into them), then tables: the commit's files and
    // statistics may go into them (CREATE TABLE AS); views once the names tables take are known;
    // schemas dropped last, once emptied by the commit's other drops.
    // Tag ends first, while the tables, views and columns they are of are still live (a drop ends
    // its object's tags in the same commit).
    StagedTags tags = new StagedTags(staged, n);
    tags.end(tagEnds);
    StagedNamespaces namespaces = new StagedNamespaces(staged, n);
    namespaces.dropViews(viewEnds);
    namespaces.createSchemas(newSchemas, premiseRecord, record);
    StagedPartitioning partitioning = new StagedPartitioning(staged, n);
    creation.alteredBeside(StagedPartitioning.tablesOf(newPartitions, repartitioned));
    creation.apply(
        premiseRecord,
        record,
        newTables,
        newColumns,
        columnEnds,
        newVersions,
        tableEnds,
        partitionEnds);
    partitioning.apply(repartitioned, newPartitions, partitionColumns, premiseRecord, record);
    namespaces.createViews(newViews, premiseRecord, record);
    tags.insert(newTags);
    StagedSorting sorting = new StagedSorting(staged, n);
    sorting.apply(sortEnds, newSorts, sortExpressions, premiseRecord, record);
    StagedMacros macros = new StagedMacros(staged, n);
    macros.drop(macroEnds);
    macros.create(newMacros, macroImpls, macroParameters, premiseRecord, record);
    namespaces.dropSchemas(schemaEnds);

    // Ends first, as DuckLake's own order has them (RFC 0006 §3.2): a file this commit ends is no
    // longer live for the rows that follow.
    TreeSet<Long> targets = new TreeSet<>(Long::compareUnsigned);
    Set<List<Long>> endedKeys = new HashSet<>();
    for (StagedRows.End e : ends) {
      fileRows.endFile(e, endedKeys, targets);
    }
    removals.forEach(this.removals::remove);
    merges.remove(mergeRemovals);
    flush.remove(rows.inlined().stream().filter(StagedInlineFlush::isRemoval).toList());
    flush.deregister(droppedInlinedTables);
    schedules.forEach(this.removals::schedule);
    Set<Long> fileIds = new HashSet<>();
    StagedMappings.create(staged, fileRows, newMappings, nameMappings, record, fileIds);
    Map<List<Long>, List<FilePartitionValueRow>> valuesOf = new HashMap<>();
    for (FilePartitionValueRow v : partitionValues) {
      required(v.partitionKeyIndex(), v, "partition_key_index");
      valuesOf
          .computeIfAbsent(
              List.of(
                  required(v.tableId(), v, "table_id"),
                  required(v.dataFileId(), v, "data_file_id")),
              k -> new ArrayList<>())
          .add(v);
    }
    for (DataFileRow r : files) {
      List<Long> key =
          List.of(
              required(r.tableId(), r, "table_id"), required(r.dataFileId(), r, "data_file_id"));
      fileRows.insertFile(r, record, fileIds, valuesOf.remove(key));
    }
    if (!valuesOf.isEmpty()) {
      throw new InvalidArgumentException(
          "ducklake_file_partition_value rows name data files "
              + valuesOf.keySet()
              + " (table, file) this commit does not insert");
    }
    Set<List<Long>> targeted = new HashSet<>();
    for (DeleteFileRow r : deletes) {
      fileRows.insertDeleteFile(r, record, fileIds, targeted);
      targets.add(r.dataFileId());
    }
    this.removals.requireComplete();
    merges.requireComplete();
    flush.requireComplete();
    StagedInlinedRows inlined = new StagedInlinedRows(state, liveness, n);
    inlined.register(
        newInlinedTables, record.getSchemaVersion(), creation.createdIds(), firstRegistrations);
    inlined.apply(
        rows.inlined().stream().filter(op -> !StagedInlineFlush.isRemoval(op)).toList(), flush);
    creation.requireDropsComplete();
    StagedStatistics statistics = new StagedStatistics(staged, liveness);
    Set<List<Long>> seen = new HashSet<>();
    for (FileColumnStatsRow r : fileStats) {
      statistics.insertFileStats(r, seen);
    }
    for (TableStatsRow r : tableStats) {
      statistics.overwriteTableStats(r, seen);
    }
    for (TableColumnStatsRow r : columnStats) {
      statistics.overwriteColumnStats(r, seen);
    }
    return new Draft(
        staged.changes(),
        operations(
            firstRegistrations,
            creation.operations(),
            namespaces.operations(),
            macros.operations(),
            tags.operations(),
            sorting.operations()),
        changeSet,
        creation.createdIds(),
        List.copyOf(targets),
        true,
        record.getNextCatalogId(),
        record.getNextFileId(),
        Optional.ofNullable(changes.author()),
        Optional.ofNullable(changes.commitMessage()),
        Optional.ofNullable(changes.commitExtraInfo()),
        state.inline,
        new dev.moraine.core.kv.WriteBatch(),
        this.removals.writes(),
        MaintenanceWrites.NONE,
        Optional.ofNullable(changes.changesMade()));
  }

  /**
   * The operations the commit path counts for the schema version: the schema changes', and the
   * extra bump of a first inlined-data table's registration.
   */
  @SafeVarargs
  private static List<dev.moraine.ducklake.ops.DuckLakeOperation> operations(
      List<InlinedDataTablesRow> firstRegistrations,
      List<dev.moraine.ducklake.ops.DuckLakeOperation>... parts) {
    List<dev.moraine.ducklake.ops.DuckLakeOperation> ops = new ArrayList<>();
    for (List<dev.moraine.ducklake.ops.DuckLakeOperation> part : parts) {
      ops.addAll(part);
    }
    if (!firstRegistrations.isEmpty()) {
      ops.add(dev.moraine.ducklake.ops.DuckLakeOperation.INLINED_INSERT_NEW_INLINED_TABLE);
    }
    return ops;
  }

  /** The entries of a {@code changes_made} text: split at the commas outside double quotes. */
  private static List<String> entries(String text) {
    List<String> out = new ArrayList<>();
    if (text.isEmpty()) {
      return out;
    }
    boolean quoted = false;
    int from = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        out.add(text.substring(from, i));
        from = i + 1;
      }
    }
    out.add(text.substring(from));
    return out;
  }

  /** The writer's group of an entry: its kind, created tables and views being one group. */
  private static String group(String entry) {
    int colon = entry.indexOf(':');
    String kind = colon < 0 ? entry : entry.substring(0, colon);
    return kind.equals("created_view") ? "created_table" : kind;
  }

  // ---- the snapshot ----------------------------------------------------------------------------

  /**
   * The counters of the snapshot row, checked against the premise: its id advances the head by one,
   * and a data-only commit carries the schema version and the catalog counter forward.
   */
  private SnapshotValue snapshotRecord(
      SnapshotRow s, SnapshotChangesRow c, boolean createsTables, boolean changesColumns) {
    long id = required(s.snapshotId(), s, "snapshot_id");
    if (!s.snapshotId().equals(required(c.snapshotId(), c, "snapshot_id"))) {
      throw new InvalidArgumentException(
          "the ducklake_snapshot_changes row is for snapshot "
              + c.snapshotId()
              + ", the ducklake_snapshot row for "
              + id);
    }
    long head = premiseRecord.getSnapshotId();
    if (Long.compareUnsigned(id, head) <= 0) {
      throw new CommitConflictException(
          "snapshot "
              + Long.toUnsignedString(id)
              + " does not advance the head "
              + Long.toUnsignedString(head)
              + ": a conflict with the commit that made it; read the catalog again");
    }
    if (id != n) {
      throw new InvalidArgumentException(
          "snapshot " + Long.toUnsignedString(id) + " skips ids: the next is " + n);
    }
    long schemaVersion = required(s.schemaVersion(), s, "schema_version");
    long nextCatalogId = required(s.nextCatalogId(), s, "next_catalog_id");
    long nextFileId = required(s.nextFileId(), s, "next_file_id");
    required(s.snapshotTime(), s, "snapshot_time");
    // A data-only commit carries the schema version and the catalog counter forward; one that
    // creates tables bumps the version once and draws their ids from the counter.
    boolean changesShape = createsTables || changesColumns;
    boolean shapeAsGiven =
        schemaVersion == premiseRecord.getSchemaVersion() + (changesShape ? 1 : 0)
            && (createsTables
                ? Long.compareUnsigned(nextCatalogId, premiseRecord.getNextCatalogId()) > 0
                : nextCatalogId == premiseRecord.getNextCatalogId());
    if (!shapeAsGiven) {
      throw new InvalidArgumentException(
          "snapshot "
              + id
              + " has schema version "
              + schemaVersion
              + " and next catalog id "
              + nextCatalogId
              + (changesShape
                  ? ": a commit creating tables or changing columns bumps the version by one, and"
                      + " only a table's creation draws catalog ids"
                  : ": the staged-row door takes data-only commits, option changes, table"
                      + " creations and drops and column changes so far, and a data-only commit"
                      + " carries both forward"));
    }
    if (Long.compareUnsigned(nextFileId, premiseRecord.getNextFileId()) < 0) {
      throw new InvalidArgumentException(
          "snapshot " + id + " moves next_file_id back, to " + Long.toUnsignedString(nextFileId));
    }
    return SnapshotValue.newBuilder()
        .setSnapshotId(id)
        .setSchemaVersion(schemaVersion)
        .setNextCatalogId(nextCatalogId)
        .setNextFileId(nextFileId)
        .build();
  }

  /**
   * Whether {@code rows} change the catalog's shape (tables, columns, partitioning): such rows are
   * never rebased (RFC 0006 §14).
   */
  public static boolean changesShape(StagedRows rows) {
    return rows != null
        && rows.ops().stream()
            .anyMatch(
                op ->
                    op != null
                        && (op.row() instanceof TableRow
                            || op.row() instanceof ColumnRow
                            || op.row() instanceof SchemaVersionsRow
                            || op.row() instanceof SchemaRow
                            || op.row() instanceof ViewRow
                            || op.row() instanceof dev.moraine.ducklake.rows.MacroRow
                            || (op instanceof StagedRows.Insert
                                && op.row() instanceof InlinedDataTablesRow)
                            || op.row() instanceof dev.moraine.ducklake.rows.PartitionInfoRow
                            || StagedTags.isTagRow(op.row())
                            || op.row() instanceof SortInfoRow));
  }

  /**
   * The change set of {@code text}, which must be DuckLake's own writing of it: its entries in
   * DuckLake's writer order, each written as the writer writes it, except that the entries of one
   * group (one kind; created tables and views together) may come in any order among themselves
   * (DuckLake writes names in hash order).
   */
  static ChangeSet changeSet(String text) {
    String given = text == null ? "" : text;
    if (given.isEmpty() && text != null) {
      throw new InvalidArgumentException(
          "changes_made is '': DuckLake writes NULL for a commit without changes");
    }
    ChangeSet parsed;
    try {
      parsed = ChangesMade.parse(given);
    } catch (RuntimeException malformed) {
      throw new InvalidArgumentException(
          "changes_made '" + given + "' does not parse: " + malformed.getMessage());
    }
    String again = ChangesMade.emit(parsed);
    String canonical = again == null ? "" : again;
    // The very entries of the canonical text (each written exactly as the writer writes it), in
    // another order only within a run of one group (DuckLake writes names in hash order; created
    // tables and views are one group).
    List<String> mine = entries(given);
    List<String> theirs = entries(canonical);
    List<String> sortedMine = new ArrayList<>(mine);
    List<String> sortedTheirs = new ArrayList<>(theirs);
    sortedMine.sort(null);
    sortedTheirs.sort(null);
    boolean permuted =
        sortedMine.equals(sortedTheirs)
            && mine.stream()
                .map(StagedTranslation::group)
                .toList()
                .equals(theirs.stream().map(StagedTranslation::group).toList());
    if (!given.equals(canonical) && !permuted) {
      throw new InvalidArgumentException(
          "changes_made '" + given + "' is not in DuckLake's writer order ('" + again + "')");
    }
    return parsed;
  }
}
