package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.TagTarget;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.ColumnTag;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.TagEntry;
import dev.moraine.core.keyspace.proto.TagValue;
import dev.moraine.core.keyspace.proto.ViewValue;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;

/**
 * Tags and comments on schemas, tables, views and columns; {@link Transaction} documents each
 * verb's contract.
 *
 * <p>A table's or view's tags live in one unversioned container per object id whose entries carry
 * their own snapshot range; a column's tags live in its record, and a change confined to them
 * overwrites the record in place (RFC 0002 §12.1: the version keeps its {@code begin_snapshot}).
 * Setting a key ends its live entry at this commit's snapshot and begins a new one; removing ends
 * it. What the commit records follows stock DuckLake's COMMENT ON: {@code altered_table} for a
 * table or column, {@code altered_view} for a view, a {@code schema_version} bump, and no {@code
 * schema_versions} record (so an empty {@code schema_changed_table_ids}). The Rust implementation's
 * tags on a table or view also write that record; RFC 0002 §16 item 8 says why the lake follows
 * stock DuckLake here. A schema's tags (which stock DuckLake does not offer) follow the Rust
 * implementation: a {@code schema_version} bump and no change kind.
 */
public final class TagVerbs {
  private final VerbState s;

  public TagVerbs(VerbState state) {
    this.s = state;
  }

  public void set(TagTarget target, String key, String value) {
    Names.nonEmpty("tag key", key);
    if (value == null) {
      throw new InvalidArgumentException("tag value must not be null (remove the tag instead)");
    }
    change(target, key, value);
  }

  public void remove(TagTarget target, String key) {
    Names.nonEmpty("tag key", key);
    change(target, key, null);
  }

  /** Ends the live entry for {@code key} and, with a value, begins a new one. */
  private void change(TagTarget target, String key, String value) {
    if (target instanceof TagTarget.Column c) {
      s.requireTable(c.tableId());
      ColumnValue column =
          VerbState.requireColumn(s.columnRecords(c.tableId()), c.tableId(), c.columnId());
      ColumnValue.Builder next = column.toBuilder();
      boolean ended = false;
      for (int i = 0; i < next.getTagsCount(); i++) {
        ColumnTag t = next.getTags(i);
        if (t.getKey().equals(key) && !t.hasEndSnapshot()) {
          next.setTags(i, t.toBuilder().setEndSnapshot(s.newSnapshotId));
          ended = true;
        }
      }
      requireEnded(ended, value, key, target);
      if (value != null) {
        next.addTags(
            ColumnTag.newBuilder().setBeginSnapshot(s.newSnapshotId).setKey(key).setValue(value));
      }
      s.staged.put(new EntityKey.Column(c.tableId(), c.columnId()), next.build());
      tableAltered(DuckLakeOperation.COMMENT_ON_COLUMN, c.tableId());
      return;
    }
    long objectId = objectOf(target);
    EntityKey.Tag entity = new EntityKey.Tag(objectId);
    TagValue.Builder next =
        s.staged
            .get(entity, TagValue.class)
            .map(TagValue::toBuilder)
            .orElseGet(() -> TagValue.newBuilder().setObjectId(objectId));
    boolean ended = false;
    for (int i = 0; i < next.getEntriesCount(); i++) {
      TagEntry t = next.getEntries(i);
      if (t.getKey().equals(key) && !t.hasEndSnapshot()) {
        next.setEntries(i, t.toBuilder().setEndSnapshot(s.newSnapshotId));
        ended = true;
      }
    }
    requireEnded(ended, value, key, target);
    if (value != null) {
      next.addEntries(
          TagEntry.newBuilder().setBeginSnapshot(s.newSnapshotId).setKey(key).setValue(value));
    }
    s.staged.put(entity, next.build());
    if (target instanceof TagTarget.Table t) {
      tableAltered(DuckLakeOperation.COMMENT_ON_TABLE, t.tableId());
    } else if (target instanceof TagTarget.Schema) {
      // The Rust implementation's schema tag: a bump, no change kind, no schema_versions record.
      s.operations.add(DuckLakeOperation.TAG_SCHEMA);
    } else {
      long viewId = ((TagTarget.View) target).viewId();
      s.operations.add(DuckLakeOperation.COMMENT_ON_VIEW);
      if (!s.provisional(viewId)) {
        s.changes.add(new ChangeEntry.ById(ChangeKind.ALTERED_VIEW, viewId));
      }
    }
  }

  /** The object id of a live table or view, or a typed refusal. */
  private long objectOf(TagTarget target) {
    if (target == null) {
      throw new InvalidArgumentException("tag target must not be null");
    }
    if (target instanceof TagTarget.Table t) {
      s.requireTable(t.tableId());
      return t.tableId();
    }
    if (target instanceof TagTarget.Schema sc) {
      s.requireSchema(sc.schemaId());
      return sc.schemaId();
    }
    long viewId = ((TagTarget.View) target).viewId();
    if (s.staged.get(new EntityKey.View(viewId), ViewValue.class).isEmpty()) {
      throw VerbState.notFound("view " + Long.toUnsignedString(viewId));
    }
    return viewId;
  }

  private static void requireEnded(boolean ended, String value, String key, TagTarget target) {
    if (!ended && value == null) {
      throw VerbState.notFound("tag '" + key + "' on " + target);
    }
  }

  /**
   * {@code altered_table}, also for a table this commit created (stock DuckLake writes {@code
   * created_table:...,altered_table:<id>} for CREATE TABLE then COMMENT ON TABLE or COLUMN); no
   * schema_versions record.
   */
  private void tableAltered(DuckLakeOperation op, long tableId) {
    s.alteredWithoutSchemaRecord(op, tableId);
  }
}
