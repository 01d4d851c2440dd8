package dev.moraine.store.commit;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.store.commit.CatalogModel.Intent;
import dev.moraine.store.commit.CatalogModel.Table;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The part of {@link CatalogModel} for column alters, partition and sort keys, tags (comments
 * included), view renames, table column statistics and the expiry of data and delete files, written
 * from the verbs' documented contracts (RFC 0004 §3, the {@code Transaction} javadoc) rather than
 * their code.
 *
 * <p>A table's inline epoch (the inlined-data versions it registers) grows with a change of a
 * column's name or type and with a partition key change, not with a default, a NOT NULL marker, a
 * sort key or a tag: rows inlined across those still share one version.
 */
final class CatalogModelAlters {
  private CatalogModelAlters() {}

  /** The types the test names that DuckLake can name: every integer type. */
  static final Set<String> NAMEABLE =
      Set.of("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64");

  static boolean handles(Intent intent) {
    return intent instanceof Intent.RenameColumn
        || intent instanceof Intent.ChangeColumnType
        || intent instanceof Intent.SetColumnDefault
        || intent instanceof Intent.SetColumnNullable
        || intent instanceof Intent.SetPartitionKey
        || intent instanceof Intent.ResetPartitionKey
        || intent instanceof Intent.SetSortKey
        || intent instanceof Intent.ResetSortKey
        || intent instanceof Intent.Tag
        || intent instanceof Intent.RenameView
        || intent instanceof Intent.UpdateColumnStats
        || intent instanceof Intent.ExpireDataFile
        || intent instanceof Intent.ExpireDeleteFile;
  }

  /** A column's type, default and nullability as the model keeps and the test reads them. */
  static String shape(String type) {
    return shape(type, "NULL", true);
  }

  static String shape(String type, String defaultValue, boolean nullsAllowed) {
    return type + " default " + defaultValue + (nullsAllowed ? "" : " not null");
  }

  /** As {@link CatalogModel#apply}: null if accepted, else the error (model unchanged). */
  static Class<? extends RuntimeException> apply(CatalogModel m, Intent intent) {
    if (intent instanceof Intent.Tag i) {
      return tag(m, i);
    }
    if (intent instanceof Intent.RenameView i) {
      String view = m.views().get(i.viewId());
      if (view == null) {
        return NotFoundException.class;
      }
      long schema = Long.parseLong(view.substring(0, view.indexOf('.')));
      if (m.relationTaken(schema, i.name(), -1)) {
        return AlreadyExistsException.class; // the view's own name included, in any case
      }
      m.views().put(i.viewId(), schema + "." + i.name());
      return null;
    }
    Table t = m.tables().get(tableOf(intent));
    if (t == null) {
      return NotFoundException.class;
    }
    if (intent instanceof Intent.SetPartitionKey i) {
      Set<Long> seen = new HashSet<>();
      for (long c : i.columnIds()) {
        if (!t.columns().containsKey(c)) {
          return NotFoundException.class;
        }
        if (!seen.add(c)) {
          return InvalidArgumentException.class;
        }
      }
      t.partition = List.copyOf(i.columnIds());
      m.takeCatalogId(); // the spec's id
      t.epoch++;
      t.partitionEpoch = t.epoch;
    } else if (intent instanceof Intent.ResetPartitionKey) {
      if (t.partition == null) {
        return NotFoundException.class;
      }
      t.partition = null;
      t.epoch++;
    } else if (intent instanceof Intent.SetSortKey i) {
      if (i.expressions().stream().anyMatch(String::isEmpty)) {
        return InvalidArgumentException.class;
      }
      t.sort = List.copyOf(i.expressions());
      m.takeCatalogId(); // the spec's id
    } else if (intent instanceof Intent.ResetSortKey) {
      if (t.sort == null) {
        return NotFoundException.class;
      }
      t.sort = null;
    } else if (intent instanceof Intent.ExpireDataFile i) {
      long[] file = t.files().remove(i.dataFileId());
      if (file == null) {
        return NotFoundException.class;
      }
      t.deletes().values().removeIf(target -> target == i.dataFileId());
      // Inline deletions of the file's rows stay pending (the verb leaves them).
      long[] s = m.statsOf(i.tableId());
      s[0] = Math.max(0, s[0] - file[1]);
      s[1] = Math.max(0, s[1] - CatalogModel.FILE_SIZE);
    } else if (intent instanceof Intent.ExpireDeleteFile i) {
      if (t.deletes().remove(i.deleteFileId()) == null) {
        return NotFoundException.class;
      }
    } else {
      return column(t, intent);
    }
    return null;
  }

  /** The column verbs, on a live table. */
  private static Class<? extends RuntimeException> column(Table t, Intent intent) {
    long columnId = columnOf(intent);
    String[] shape =
        t.columnShapes.containsKey(columnId) ? parse(t.columnShapes.get(columnId)) : null;
    if (!t.columns().containsKey(columnId)) {
      return NotFoundException.class;
    }
    if (intent instanceof Intent.RenameColumn i) {
      if (t.columns().get(columnId).equals(i.name())) {
        return InvalidArgumentException.class;
      }
      for (var c : t.columns().entrySet()) {
        if (c.getKey() != columnId && CatalogModel.same(c.getValue(), i.name())) {
          return AlreadyExistsException.class;
        }
      }
      t.columns().put(columnId, i.name());
    } else if (intent instanceof Intent.ChangeColumnType i) {
      if (!NAMEABLE.contains(i.type())) {
        return InvalidArgumentException.class;
      }
      t.columnShapes.put(columnId, shape(i.type(), shape[1], shape[2].isEmpty()));
    } else if (intent instanceof Intent.SetColumnDefault i) {
      // A dropped default is stored as the text NULL, as a column created without one.
      String value = i.value() == null ? "NULL" : i.value();
      t.columnShapes.put(columnId, shape(shape[0], value, shape[2].isEmpty()));
      return null; // no new inlined-data version: the rows' fields are the same
    } else if (intent instanceof Intent.SetColumnNullable i) {
      t.columnShapes.put(columnId, shape(shape[0], shape[1], i.nullsAllowed()));
      return null; // as a default
    } else if (intent instanceof Intent.UpdateColumnStats i) {
      t.columnStats.put(
          columnId,
          new String[] {
            String.valueOf(i.containsNull()),
            null,
            String.valueOf(i.min()),
            String.valueOf(i.max()),
            null
          });
      return null; // statistics are no schema change
    } else {
      throw new AssertionError("not an alter intent " + intent);
    }
    t.epoch++;
    return null;
  }

  /** Type, default and the not-null marker ("" when nulls are allowed) of a {@link #shape}. */
  private static String[] parse(String shape) {
    String type = shape.substring(0, shape.indexOf(" default "));
    String rest = shape.substring(type.length() + " default ".length());
    boolean notNull = rest.endsWith(" not null");
    String def = notNull ? rest.substring(0, rest.length() - " not null".length()) : rest;
    return new String[] {type, def, notNull ? "not null" : ""};
  }

  private static Class<? extends RuntimeException> tag(CatalogModel m, Intent.Tag i) {
    Map<String, String> tags;
    switch (i.on()) {
      case SCHEMA, VIEW -> {
        boolean live =
            i.on() == CatalogModel.TagOn.SCHEMA
                ? m.schemas().containsKey(i.objectId())
                : m.views().containsKey(i.objectId());
        if (!live) {
          return NotFoundException.class;
        }
        tags = m.tagsOf(i.objectId());
      }
      case TABLE -> {
        Table t = m.tables().get(i.objectId());
        if (t == null) {
          return NotFoundException.class;
        }
        tags = t.tags;
      }
      default -> {
        Table t = m.tables().get(i.objectId());
        if (t == null || !t.columns().containsKey(i.columnId())) {
          return NotFoundException.class;
        }
        tags = t.columnTags.computeIfAbsent(i.columnId(), k -> new java.util.TreeMap<>());
      }
    }
    Class<? extends RuntimeException> refusal = null;
    if (i.value() == null) {
      refusal = tags.remove(i.key()) == null ? NotFoundException.class : null;
    } else {
      tags.put(i.key(), i.value());
    }
    if (i.on() == CatalogModel.TagOn.COLUMN) {
      // A column without tags has no entry, as the test reads it.
      m.tables().get(i.objectId()).columnTags.values().removeIf(Map::isEmpty);
    }
    return refusal;
  }

  /**
   * A file registered by name, or a flush that writes a data file, on a partitioned table: both
   * carry no partition values, so the verb refuses a file by name, and a flush of rows inlined
   * under the live partitioning (rows inlined before it go into a file without partition values),
   * before it looks further. Null when the intent is neither, or is taken, or its table is not live
   * or not partitioned.
   */
  static Class<? extends RuntimeException> refusedUnpartitioned(CatalogModel m, Intent intent) {
    long tableId;
    if (intent instanceof Intent.RegisterByName i) {
      tableId = i.tableId();
    } else if (intent instanceof Intent.Flush i && i.rows() > 0) {
      tableId = i.tableId();
    } else {
      return null;
    }
    Table t = m.tables().get(tableId);
    if (t == null || t.partition == null) {
      return null;
    }
    if (intent instanceof Intent.Flush) {
      // Rows inlined before the live partitioning go into a file without partition values, as
      // the test's flush writes them; rows inlined under it need one file a partition.
      return t.inlined.values().stream().anyMatch(e -> e >= t.partitionEpoch)
          ? InvalidArgumentException.class
          : null;
    }
    return InvalidArgumentException.class;
  }

  /**
   * The table column statistics an accepted inlined insert leaves: the test inlines the value
   * {@code r + c} into the column at position {@code c} of row {@code r}. A table without
   * statistics gets them for every live column, unless it already holds rows (of files registered
   * without statistics, whose values no bound describes); a table with some merges into those
   * columns only. Called once the insert has advanced the table's next row id.
   */
  static void inlinedStats(CatalogModel m, Intent intent) {
    if (!(intent instanceof Intent.InsertInlined i)) {
      return;
    }
    Table t = m.tables().get(i.tableId());
    boolean started = !t.columnStats.isEmpty();
    if (!started && m.statsOf(i.tableId())[2] - i.rows() != 0) {
      return;
    }
    int position = 0;
    for (long columnId : t.columns().keySet()) {
      long min = position;
      long max = position + i.rows() - 1L;
      position++;
      String[] before = t.columnStats.get(columnId);
      if (started && before == null) {
        continue;
      }
      String[] after = before == null ? new String[5] : before.clone();
      after[0] = String.valueOf(before != null && "true".equals(before[0]));
      if (after[2] == null || min < Long.parseLong(after[2])) {
        after[2] = String.valueOf(min);
      }
      if (after[3] == null || max > Long.parseLong(after[3])) {
        after[3] = String.valueOf(max);
      }
      t.columnStats.put(columnId, after);
    }
  }

  /** The table an intent of this class, or a column add or drop, changes. */
  static long tableOf(Intent intent) {
    return component(intent, "tableId")
        .orElseThrow(() -> new AssertionError("no table in " + intent));
  }

  private static long columnOf(Intent intent) {
    return component(intent, "columnId")
        .orElseThrow(() -> new AssertionError("no column in " + intent));
  }

  /** The id an intent holds in its record component {@code name}, if it has one. */
  static java.util.OptionalLong component(Intent intent, String name) {
    for (java.lang.reflect.RecordComponent c : intent.getClass().getRecordComponents()) {
      if (c.getName().equals(name)) {
        try {
          return java.util.OptionalLong.of((Long) c.getAccessor().invoke(intent));
        } catch (ReflectiveOperationException e) {
          throw new AssertionError(e);
        }
      }
    }
    return java.util.OptionalLong.empty();
  }
}
