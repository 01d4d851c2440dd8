package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.requireAbsent;
import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.ColumnTag;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.proto.TagEntry;
import dev.moraine.core.keyspace.proto.TagValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import dev.moraine.ducklake.rows.ColumnTagRow;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.TagRow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The staged-row door's tags and comments (RFC 0006 §13): {@code COMMENT ON TABLE}, {@code VIEW}
 * and {@code COLUMN} as DuckLake writes them, the end of the key's live {@code ducklake_tag} or
 * {@code ducklake_column_tag} row and the insert of the new one, both at the commit's snapshot. The
 * records are the verb path's: a table's or view's entries in its one tag container, a column's in
 * its column record. DROP TABLE and DROP VIEW end their object's tags in the same commit; those
 * ends are checked and staged alike.
 *
 * <p>The keyspace keeps a tag's value as a string, never absent, so DuckLake's {@code COMMENT ON
 * ... IS NULL}, which inserts a row with a NULL value, is refused (the Rust implementation's door
 * refuses it alike).
 *
 * <p>Ends run before the commit's drops and column changes ({@link #end}), while the objects are
 * still live; inserts run after its creations ({@link #insert}), so that a table created in the
 * same commit can be commented. Confined to the thread running the translation.
 */
final class StagedTags {
  private final StagedEntities staged;
  private final long n;

  /** The tables and views whose own tags this commit changes. */
  private final Set<Long> objects = new TreeSet<>(Long::compareUnsigned);

  /** The tables whose columns' tags this commit changes. */
  private final Set<Long> columnTables = new TreeSet<>(Long::compareUnsigned);

  /** The (what, ids..., key) of each row taken, to refuse a second of one key. */
  private final Set<List<Object>> seen = new HashSet<>();

  StagedTags(StagedEntities staged, long n) {
    this.staged = staged;
    this.n = n;
  }

  /** Whether {@code row} is one of the tag tables' rows. */
  static boolean isTagRow(DuckLakeRow row) {
    return row instanceof TagRow || row instanceof ColumnTagRow;
  }

  /** Ends the live entries {@code ends} name: each the entry the lake holds, ended at N. */
  void end(List<StagedRows.End> ends) {
    for (StagedRows.End e : ends) {
      if (e.endSnapshot() != n) {
        throw new InvalidArgumentException(
            StagedRowChecks.describe(e) + " ends at " + e.endSnapshot() + ", not at " + n);
      }
      if (e.row() instanceof TagRow r) {
        long objectId = required(r.objectId(), r, "object_id");
        requireAbsent(r.endSnapshot(), r, "end_snapshot");
        once(List.of("end", objectId, required(r.key(), r, "key")), r);
        TagValue.Builder container = containerOf(objectId).toBuilder();
        int at = liveEntry(container.getEntriesList(), r.key(), r.beginSnapshot(), r.value(), r);
        container.setEntries(at, container.getEntries(at).toBuilder().setEndSnapshot(n));
        staged.put(new EntityKey.Tag(objectId), container.build());
        objects.add(objectId);
      } else {
        ColumnTagRow r = (ColumnTagRow) e.row();
        long tableId = required(r.tableId(), r, "table_id");
        long columnId = required(r.columnId(), r, "column_id");
        requireAbsent(r.endSnapshot(), r, "end_snapshot");
        once(List.of("end", tableId, columnId, required(r.key(), r, "key")), r);
        ColumnValue column = liveColumn(tableId, columnId);
        List<TagEntry> entries = column.getTagsList().stream().map(StagedTags::entry).toList();
        int at = liveEntry(entries, r.key(), r.beginSnapshot(), r.value(), r);
        ColumnValue.Builder next = column.toBuilder();
        next.setTags(at, next.getTags(at).toBuilder().setEndSnapshot(n));
        staged.put(new EntityKey.Column(tableId, columnId), next.build());
        columnTables.add(tableId);
      }
    }
  }

  /** Inserts the new entries {@code rows}: each of a live object, begun at N, its key not live. */
  void insert(List<DuckLakeRow> rows) {
    for (DuckLakeRow row : rows) {
      if (row instanceof TagRow r) {
        long objectId = required(r.objectId(), r, "object_id");
        once(List.of("insert", objectId, required(r.key(), r, "key")), r);
        checkNew(r, r.beginSnapshot(), r.endSnapshot(), r.key(), r.value());
        TagValue container = containerOf(objectId);
        requireKeyFree(container.getEntriesList(), r.key(), r);
        staged.put(
            new EntityKey.Tag(objectId),
            container.toBuilder()
                .addEntries(
                    TagEntry.newBuilder().setBeginSnapshot(n).setKey(r.key()).setValue(r.value()))
                .build());
        objects.add(objectId);
      } else {
        ColumnTagRow r = (ColumnTagRow) row;
        long tableId = required(r.tableId(), r, "table_id");
        long columnId = required(r.columnId(), r, "column_id");
        once(List.of("insert", tableId, columnId, required(r.key(), r, "key")), r);
        checkNew(r, r.beginSnapshot(), r.endSnapshot(), r.key(), r.value());
        ColumnValue column = liveColumn(tableId, columnId);
        requireKeyFree(column.getTagsList().stream().map(StagedTags::entry).toList(), r.key(), r);
        staged.put(
            new EntityKey.Column(tableId, columnId),
            column.toBuilder()
                .addTags(
                    ColumnTag.newBuilder().setBeginSnapshot(n).setKey(r.key()).setValue(r.value()))
                .build());
        columnTables.add(tableId);
      }
    }
  }

  /**
   * The operations the commit path counts for the schema version: a comment on each table or view
   * it leaves live (a drop counts for itself).
   */
  List<DuckLakeOperation> operations() {
    List<DuckLakeOperation> ops = new ArrayList<>();
    for (long id : objects) {
      if (staged.get(new EntityKey.Table(id), TableValue.class).isPresent()) {
        ops.add(DuckLakeOperation.COMMENT_ON_TABLE);
      } else if (staged.get(new EntityKey.View(id), ViewValue.class).isPresent()) {
        ops.add(DuckLakeOperation.COMMENT_ON_VIEW);
      }
    }
    for (long id : columnTables) {
      if (staged.get(new EntityKey.Table(id), TableValue.class).isPresent()) {
        ops.add(DuckLakeOperation.COMMENT_ON_COLUMN);
      }
    }
    return ops;
  }

  private void checkNew(DuckLakeRow r, Long begin, Long end, String key, String value) {
    requireAbsent(end, r, "end_snapshot");
    if (required(begin, r, "begin_snapshot") != n) {
      throw new InvalidArgumentException(
          StagedRowChecks.tableOf(r) + " row begins at " + begin + ", not at " + n + ": " + r);
    }
    if (key.isEmpty()) {
      throw new InvalidArgumentException(StagedRowChecks.tableOf(r) + ".key is empty: " + r);
    }
    if (value == null) {
      throw new InvalidArgumentException(
          StagedRowChecks.tableOf(r)
              + ".value is NULL (COMMENT ON ... IS NULL): the lake keeps a tag's value as text,"
              + " never NULL; set the comment to '' instead, or remove the tag through"
              + " Catalog.commit");
    }
  }

  /** The tag container of a live table or view (empty when it has none yet). */
  private TagValue containerOf(long objectId) {
    boolean live =
        staged.get(new EntityKey.Table(objectId), TableValue.class).isPresent()
            || staged.get(new EntityKey.View(objectId), ViewValue.class).isPresent();
    if (!live) {
      throw new NotFoundException(
          ErrorCode.NOT_FOUND,
          "the commit's ducklake_tag rows name object "
              + Long.toUnsignedString(objectId)
              + ", which is no live table or view");
    }
    return staged
        .get(new EntityKey.Tag(objectId), TagValue.class)
        .orElseGet(() -> TagValue.newBuilder().setObjectId(objectId).build());
  }

  private ColumnValue liveColumn(long tableId, long columnId) {
    return staged
        .get(new EntityKey.Column(tableId, columnId), ColumnValue.class)
        .orElseThrow(
            () ->
                new NotFoundException(
                    ErrorCode.NOT_FOUND,
                    "the commit's ducklake_column_tag rows name column "
                        + Long.toUnsignedString(columnId)
                        + " of table "
                        + Long.toUnsignedString(tableId)
                        + ", which is not live"));
  }

  /** The index of the live entry of {@code key}, refused unless it is the row given. */
  private static int liveEntry(
      List<TagEntry> entries, String key, Long begin, String value, DuckLakeRow r) {
    for (int i = 0; i < entries.size(); i++) {
      TagEntry t = entries.get(i);
      if (t.getKey().equals(key) && !t.hasEndSnapshot()) {
        if (!Long.valueOf(t.getBeginSnapshot()).equals(begin) || !t.getValue().equals(value)) {
          break;
        }
        return i;
      }
    }
    throw new InvalidArgumentException(
        "an end of "
            + StagedRowChecks.tableOf(r)
            + " row "
            + r
            + " is not of a live entry the lake"
            + " holds");
  }

  private void once(List<Object> key, DuckLakeRow r) {
    if (!seen.add(key)) {
      throw new InvalidArgumentException(
          StagedRowChecks.tableOf(r) + " row " + r + " is given twice for one key");
    }
  }

  private static void requireKeyFree(List<TagEntry> entries, String key, DuckLakeRow r) {
    if (entries.stream().anyMatch(t -> t.getKey().equals(key) && !t.hasEndSnapshot())) {
      throw new InvalidArgumentException(
          StagedRowChecks.tableOf(r)
              + " row "
              + r
              + " begins a value for a key whose live entry the commit does not end");
    }
  }

  private static TagEntry entry(ColumnTag t) {
    TagEntry.Builder b =
        TagEntry.newBuilder()
            .setBeginSnapshot(t.getBeginSnapshot())
            .setKey(t.getKey())
            .setValue(t.getValue());
    if (t.hasEndSnapshot()) {
      b.setEndSnapshot(t.getEndSnapshot());
    }
    return b.build();
  }
}
