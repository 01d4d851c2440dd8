package dev.moraine.core.verb;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CorruptionException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.FileIndexValues;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.DataFileValue;
import dev.moraine.core.keyspace.proto.DeleteFileValue;
import dev.moraine.core.keyspace.proto.OptionScopeValue;
import dev.moraine.core.keyspace.proto.PartitionValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.proto.TableColumnStatsValue;
import dev.moraine.core.keyspace.proto.TableStatsValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import dev.moraine.core.view.Names;
import dev.moraine.core.view.SnapshotView;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the verbs of one closure run share: the staged entities over the premise, the id counters,
 * and what the commit will record (DuckLake operations, the change set, the relations whose shape
 * changed, the data files its delete files target). Also the lookups and checks more than one area
 * of verbs needs.
 *
 * <p>One instance belongs to one {@link Transaction} and so to the one thread running its closure;
 * nothing here is guarded, because nothing here is shared.
 */
public final class VerbState {
  public final StagedEntities staged;
  public final SnapshotValue premiseRecord;
  public final long newSnapshotId;
  public long nextCatalogId;
  public long nextFileId;
  public final List<DuckLakeOperation> operations = new ArrayList<>();
  public final ChangeSet.Builder changes = ChangeSet.builder();
  public final Set<Long> schemaChangedIds = new TreeSet<>(Long::compareUnsigned);

  /**
   * The tables this commit created or re-shaped (columns, name, schema or partition key): those for
   * which stock DuckLake opens a new inlined-data table, a subset of {@link #schemaChangedIds} (a
   * column's default or nullability writes a schema-versions record and opens none).
   */
  public final Set<Long> reshapedIds = new TreeSet<>(Long::compareUnsigned);

  public final Set<Long> deletedDataFileIds = new TreeSet<>(Long::compareUnsigned);

  /** Writes to the inline subspace (inlined rows and their deletions), outside the entities. */
  public final InlineWrites inline = new InlineWrites();

  public final CompactionWrites compaction = new CompactionWrites();

  /** The equality-index entries the run's inline verbs derive, resolved when it has returned. */
  public final IndexUpkeep indexes = new IndexUpkeep(this);

  public boolean statsChanged;

  /** How the verbs read the index values of data files' rows, if the catalog was given a way. */
  public final Optional<FileIndexValues> fileIndexValues;

  /** The premise as the public API shows it, for {@link #fileIndexValues}. */
  final CatalogSnapshot premiseSnapshot;

  /**
   * The data inlining row limit of a table whose lake options set none ({@link
   * CatalogOptions#dataInliningRowLimit}).
   */
  final long defaultInliningRowLimit;

  public VerbState(
      SnapshotView premise,
      SnapshotValue premiseRecord,
      CatalogOptions options,
      CatalogSnapshot premiseSnapshot) {
    this.fileIndexValues = options.fileIndexValues();
    this.defaultInliningRowLimit = options.dataInliningRowLimit();
    this.premiseSnapshot = premiseSnapshot;
    this.staged = new StagedEntities(premise);
    this.premiseRecord = premiseRecord;
    this.newSnapshotId = premiseRecord.getSnapshotId() + 1;
    this.nextCatalogId = premiseRecord.getNextCatalogId();
    this.nextFileId = premiseRecord.getNextFileId();
  }

  // ---- what the commit records -----------------------------------------------------------------

  void record(DuckLakeOperation op, ChangeEntry entry) {
    operations.add(op);
    changes.add(entry);
  }

  /**
   * A table alteration: {@code altered_table} and a {@code schema_versions} record, also for a
   * table this commit created: stock DuckLake 1.5.5 writes {@code
   * created_table:"s"."t",altered_table:<its new id>} for CREATE TABLE then ALTER TABLE in one
   * transaction. That id is provisional; the conflict check never matches it against a concurrent
   * commit's entries ({@code ProvisionalIds}).
   */
  void altered(DuckLakeOperation op, long tableId) {
    alteredWithoutSchemaRecord(op, tableId);
    schemaChangedIds.add(tableId);
    if (RESHAPING.contains(op)) {
      reshapedIds.add(tableId);
    }
  }

  /** The alterations after which stock DuckLake 1.5.5 inlines into a new inlined-data table. */
  private static final Set<DuckLakeOperation> RESHAPING =
      EnumSet.of(
          DuckLakeOperation.ADD_COLUMN,
          DuckLakeOperation.DROP_COLUMN,
          DuckLakeOperation.RENAME_COLUMN,
          DuckLakeOperation.CHANGE_COLUMN_TYPE,
          DuckLakeOperation.SET_PARTITIONED_BY,
          DuckLakeOperation.RESET_PARTITIONED_BY);

  /** A table this commit creates: a new schema-versions record and a new shape. */
  void created(long tableId) {
    schemaChangedIds.add(tableId);
    reshapedIds.add(tableId);
  }

  /**
   * The data inlining row limit of {@code tableId}, as DuckLake resolves it: the option {@code
   * data_inlining_row_limit} at the table's scope, else its schema's, else the global one, else the
   * catalog's {@link #defaultInliningRowLimit}. A value that is not a number counts as unset.
   */
  long inliningRowLimit(long tableId) {
    TableValue table = requireTable(tableId);
    for (EntityKey.OptionScope scope :
        List.of(
            new EntityKey.OptionScope(EntityKey.OptionScope.TABLE, tableId),
            new EntityKey.OptionScope(EntityKey.OptionScope.SCHEMA, table.getSchemaId()),
            EntityKey.OptionScope.global())) {
      Optional<OptionScopeValue> options = staged.get(scope, OptionScopeValue.class);
      String value = options.map(o -> o.getOptionsOrDefault(INLINING_ROW_LIMIT, null)).orElse(null);
      if (value != null) {
        try {
          return Long.parseLong(value.trim());
        } catch (NumberFormatException notANumber) {
          // As unset: the next scope decides.
        }
      }
    }
    return defaultInliningRowLimit;
  }

  private static final String INLINING_ROW_LIMIT = "data_inlining_row_limit";

  /**
   * A table change DuckLake records as {@code altered_table} without a {@code schema_versions}
   * record (a sort key, a comment or tag), also for a table this commit created, as {@link
   * #altered} explains.
   */
  void alteredWithoutSchemaRecord(DuckLakeOperation op, long tableId) {
    operations.add(op);
    changes.add(new ChangeEntry.ById(ChangeKind.ALTERED_TABLE, tableId));
  }

  /**
   * A table that keeps its id under a new name or in a new schema. Stock DuckLake records it as the
   * creation of the table under its new qualified name (the Rust implementation writes {@code
   * altered_table}; we follow DuckLake, whose text DuckLake re-reads).
   */
  void renamed(long schemaId, String name, long tableId) {
    SchemaValue schema = schema(schemaId).orElseThrow();
    record(
        DuckLakeOperation.RENAME_TABLE,
        new ChangeEntry.ByQualifiedName(ChangeKind.CREATED_TABLE, schema.getSchemaName(), name));
    schemaChangedIds.add(tableId);
    reshapedIds.add(tableId);
  }

  /** Whether this commit numbered the id itself (it is at or above the premise's counter). */
  boolean provisional(long id) {
    return Long.compareUnsigned(id, premiseRecord.getNextCatalogId()) >= 0;
  }

  // ---- lookups over the staged view ------------------------------------------------------------

  Optional<SchemaValue> schema(long schemaId) {
    return staged.get(new EntityKey.Schema(schemaId), SchemaValue.class);
  }

  SchemaValue requireSchema(long schemaId) {
    return schema(schemaId)
        .orElseThrow(() -> notFound("schema " + Long.toUnsignedString(schemaId)));
  }

  public Optional<TableValue> liveTable(long tableId) {
    return staged.get(new EntityKey.Table(tableId), TableValue.class);
  }

  TableValue requireTable(long tableId) {
    return liveTable(tableId)
        .orElseThrow(() -> notFound("table " + Long.toUnsignedString(tableId)));
  }

  public List<ColumnValue> columnRecords(long tableId) {
    return staged.list(
        EntityKind.COLUMN,
        tableId,
        ColumnValue.class,
        v -> new EntityKey.Column(tableId, v.getColumnId()));
  }

  List<DataFileValue> dataFileRecords(long tableId) {
    return staged.list(
        EntityKind.DATA_FILE,
        tableId,
        DataFileValue.class,
        v -> new EntityKey.DataFile(tableId, v.getDataFileId()));
  }

  List<DeleteFileValue> deleteFileRecords(long tableId) {
    return staged.list(
        EntityKind.DELETE_FILE,
        tableId,
        DeleteFileValue.class,
        v -> new EntityKey.DeleteFile(tableId, v.getDeleteFileId()));
  }

  List<PartitionValue> partitionRecords(long tableId) {
    return staged.list(
        EntityKind.PARTITION,
        tableId,
        PartitionValue.class,
        v -> new EntityKey.Partition(tableId, v.getPartitionId()));
  }

  List<TableColumnStatsValue> tableColumnStatsRecords(long tableId) {
    return staged.list(
        EntityKind.TABLE_COLUMN_STATS,
        tableId,
        TableColumnStatsValue.class,
        v -> new EntityKey.TableColumnStats(tableId, v.getColumnId()));
  }

  /**
   * Whether new rows may start column statistics records for the table's columns that have none:
   * only while the table has no records at all and held no rows before them. Stock DuckLake keeps a
   * table's statistics once it has any and leaves a column without (one added after rows were
   * written) without; a table holding rows but no records got them from files registered without
   * statistics, whose values no bound describes.
   */
  boolean startsColumnStats(long tableId, boolean heldRows) {
    return !heldRows && tableColumnStatsRecords(tableId).isEmpty();
  }

  TableStatsValue requireStats(long tableId) {
    return staged
        .get(new EntityKey.TableStats(tableId), TableStatsValue.class)
        .orElseThrow(
            () ->
                new CorruptionException(
                    "table " + Long.toUnsignedString(tableId) + " has no statistics record"));
  }

  static ColumnValue requireColumn(List<ColumnValue> live, long tableId, long columnId) {
    return live.stream()
        .filter(c -> c.getColumnId() == columnId)
        .findFirst()
        .orElseThrow(() -> columnNotFound(tableId, columnId));
  }

  /**
   * The live column {@code columnId} of a table, by one lookup of its key (the premise loads the
   * one record, not the table's columns, unless it holds them already).
   */
  ColumnValue requireColumn(long tableId, long columnId) {
    return staged
        .get(new EntityKey.Column(tableId, columnId), ColumnValue.class)
        .orElseThrow(() -> columnNotFound(tableId, columnId));
  }

  private static NotFoundException columnNotFound(long tableId, long columnId) {
    return notFound(
        "column "
            + Long.toUnsignedString(columnId)
            + " of table "
            + Long.toUnsignedString(tableId));
  }

  // ---- checks ----------------------------------------------------------------------------------

  /**
   * Tables and views share one namespace per schema; {@code self} is a table being renamed. Looks
   * the name up in the premise's name index and this attempt's overlay, so the check costs a
   * logarithmic search, not a walk of the schema.
   */
  void relationNameFree(long schemaId, String name, Long self) {
    boolean taken =
        staged.named(EntityKind.TABLE, schemaId, name, TableValue.class).stream()
                .anyMatch(
                    t ->
                        Names.same(t.getTableName(), name)
                            && (self == null || t.getTableId() != self))
            || staged.named(EntityKind.VIEW, schemaId, name, ViewValue.class).stream()
                .anyMatch(v -> Names.same(v.getViewName(), name));
    if (taken) {
      throw new AlreadyExistsException("a table or view named '" + name + "' already exists");
    }
  }

  static void nonNegative(String what, long value) {
    if (value < 0) {
      throw new InvalidArgumentException(what + " must not be negative, got " + value);
    }
  }

  static NotFoundException notFound(String what) {
    return new NotFoundException(ErrorCode.NOT_FOUND, what + " does not exist");
  }
}
