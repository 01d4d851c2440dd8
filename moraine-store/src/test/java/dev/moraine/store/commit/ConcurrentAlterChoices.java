package dev.moraine.store.commit;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.ColumnStats;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.PartitionKey;
import dev.moraine.core.catalog.model.PartitionSpec;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.SortKey;
import dev.moraine.core.catalog.model.SortSpec;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.TagEntry;
import dev.moraine.core.catalog.model.TagTarget;
import dev.moraine.core.catalog.model.ViewInfo;
import dev.moraine.store.commit.CatalogModel.Intent;
import dev.moraine.store.commit.CatalogModel.TagOn;
import dev.moraine.store.commit.ConcurrentVerbModelPropertiesTest.Action;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The actions of {@link ConcurrentVerbModelPropertiesTest} from operation {@link #FIRST_OP} on:
 * column alters (rename, type promotion, default, NOT NULL), partition and sort keys, tags on
 * schemas, tables, columns and views, view renames, table column statistics, and the expiry of data
 * and delete files. Each is chosen from the premise, most valid, some deliberately not (an unknown
 * column, a column named twice, an empty sort expression, a type DuckLake cannot name); performed
 * through the verbs; and read back for the check.
 */
final class ConcurrentAlterChoices {
  private ConcurrentAlterChoices() {}

  /** The first operation number this class chooses for; the last is {@link #LAST_OP}. */
  static final int FIRST_OP = 26;

  static final int LAST_OP = 40;

  /** The types an added column takes, by argument: every integer type that can be widened. */
  private static final List<String> ADDED_TYPES =
      List.of("int8", "int16", "int32", "uint8", "uint16", "uint32", "int32", "int16");

  /** DuckLake's lossless type promotions among the integer types (its schema-evolution table). */
  private static final Map<String, List<String>> PROMOTIONS =
      Map.of(
          "int8", List.of("int16", "int32", "int64"),
          "int16", List.of("int32", "int64"),
          "int32", List.of("int64"),
          "uint8", List.of("uint16", "uint32", "uint64", "int16", "int32", "int64"),
          "uint16", List.of("uint32", "uint64", "int32", "int64"),
          "uint32", List.of("uint64", "int64"));

  /** A type DuckLake cannot name. */
  static final String UNNAMEABLE = "int33";

  private static final List<String> TAG_KEYS = List.of("comment", "owner", "tier");

  /** The type of column {@code c} (from 0) of a table the test creates. */
  static String createdType(int c) {
    return List.of("int64", "int32", "uint8").get(c % 3);
  }

  /** The type an added column of argument {@code arg} takes. */
  static String addedType(int arg) {
    return ADDED_TYPES.get(arg % ADDED_TYPES.size());
  }

  /** The intent of an operation from {@link #FIRST_OP} on, or null for the default create. */
  static Intent choose(CatalogSnapshot p, TableInfo table, long schema, Action a) {
    int op = a.op();
    if (op == 34) {
      List<SchemaInfo> schemas = sorted(p.schemas(), SchemaInfo::schemaId);
      long target = schemas.get(a.pick() % schemas.size()).schemaId();
      return new Intent.Tag(TagOn.SCHEMA, target, 0, key(a), "schema " + a.arg());
    }
    if (op == 37) {
      List<ViewInfo> views = sorted(p.views(), ViewInfo::viewId);
      if (views.isEmpty()) {
        return null;
      }
      ViewInfo view = views.get(a.pick() % views.size());
      // Arguments 6 and 7: the view's own name in other case, which it holds itself (a planted
      // refusal the test requires in every run, so drawn often enough to occur in each).
      return new Intent.RenameView(
          view.viewId(),
          a.arg() >= 6
              ? view.name().toUpperCase(java.util.Locale.ROOT)
              : (a.arg() % 2 == 0 ? "v" : "V") + (a.arg() % 3));
    }
    if (table == null) {
      return null;
    }
    long t = table.tableId();
    List<ColumnInfo> cols = sorted(p.columns(t), ColumnInfo::columnId);
    ColumnInfo col = cols.get(a.pick() % cols.size());
    switch (op) {
      case 26:
        if (a.arg() == 6) {
          // Another column's name in other case (taken), or with one column its own (unchanged).
          ColumnInfo other = cols.get((a.pick() + 1) % cols.size());
          return new Intent.RenameColumn(
              t,
              col.columnId(),
              other == col ? col.name() : other.name().toUpperCase(java.util.Locale.ROOT));
        }
        return new Intent.RenameColumn(t, col.columnId(), (a.arg() % 2 == 0 ? "c" : "C") + a.arg());
      case 27:
        if (a.arg() >= 5) {
          return new Intent.ChangeColumnType(t, col.columnId(), UNNAMEABLE);
        }
        // A column whose type can still widen, the picked one first.
        for (int k = 0; k < cols.size(); k++) {
          ColumnInfo c = cols.get((a.pick() + k) % cols.size());
          List<String> wider = PROMOTIONS.getOrDefault(c.type(), List.of());
          if (!wider.isEmpty()) {
            return new Intent.ChangeColumnType(t, c.columnId(), wider.get(a.arg() % wider.size()));
          }
        }
        return new Intent.SetColumnDefault(t, col.columnId(), String.valueOf(a.arg()));
      case 28:
        return new Intent.SetColumnDefault(
            t, col.columnId(), a.arg() % 3 == 0 ? null : String.valueOf(a.arg()));
      case 29:
        return new Intent.SetColumnNullable(t, col.columnId(), a.arg() % 2 == 0);
      case 30:
        if (a.arg() == 4 || a.arg() == 6) {
          return new Intent.SetPartitionKey(t, List.of(999L));
        }
        if (a.arg() == 5 || a.arg() == 7) {
          return new Intent.SetPartitionKey(t, List.of(col.columnId(), col.columnId()));
        }
        List<Long> keys = new ArrayList<>();
        for (int k = 0; k < 1 + a.arg() % 2 && k < cols.size(); k++) {
          keys.add(cols.get((a.pick() + k) % cols.size()).columnId());
        }
        return new Intent.SetPartitionKey(t, keys);
      case 31:
        // A table's key to reset where one has a key, else set one; arguments 6 and 7, the picked
        // table's.
        long partitioned = having(p, table, a, x -> p.partitioning(x).isPresent());
        return a.arg() < 6 && p.partitioning(partitioned).isEmpty()
            ? new Intent.SetPartitionKey(t, List.of(col.columnId()))
            : new Intent.ResetPartitionKey(a.arg() >= 6 ? t : partitioned);
      case 32:
        return new Intent.SetSortKey(
            t, a.arg() >= 6 ? List.of("") : List.of(col.name(), "c" + a.arg() + " + 1"));
      case 33:
        long sorted = having(p, table, a, x -> p.sorting(x).isPresent());
        return a.arg() < 6 && p.sorting(sorted).isEmpty()
            ? new Intent.SetSortKey(t, List.of(col.name()))
            : new Intent.ResetSortKey(a.arg() >= 6 ? t : sorted);
      case 35:
        return tagOn(p, table, col, a, "v" + a.arg());
      case 36:
        return tagOn(p, table, col, a, null);
      case 38:
        return new Intent.UpdateColumnStats(
            t, a.arg() >= 5 ? 999 : col.columnId(), a.arg() % 2 == 0, -a.arg(), 10L * a.arg());
      case 39:
      case 40:
        // Mostly a file that is live; argument 7 one that never was. A table without delete
        // files expires a data file instead, one without data files gets one registered.
        if (op == 40) {
          t = having(p, table, a, x -> !p.deleteFiles(x).isEmpty());
        }
        List<DeleteFileInfo> deletes = sorted(p.deleteFiles(t), DeleteFileInfo::deleteFileId);
        List<DataFileInfo> files = sorted(p.dataFiles(t), DataFileInfo::dataFileId);
        if (a.arg() >= 6) {
          return op == 39
              ? new Intent.ExpireDataFile(t, 9_999)
              : new Intent.ExpireDeleteFile(t, 9_999);
        }
        if (op == 40 && !deletes.isEmpty()) {
          return new Intent.ExpireDeleteFile(
              t, deletes.get(a.pick() % deletes.size()).deleteFileId());
        }
        return files.isEmpty()
            ? new Intent.RegisterFile(t, 1 + a.arg(), keyCount(p, t))
            : new Intent.ExpireDataFile(t, files.get(a.pick() % files.size()).dataFileId());
      default:
        return null;
    }
  }

  /**
   * The first table from the picked one on (in id order) that {@code has} holds for, or the picked
   * one: a reset finds a key to reset, an expiry a file to expire, in most tries.
   */
  private static long having(
      CatalogSnapshot p, TableInfo table, Action a, java.util.function.LongPredicate has) {
    List<TableInfo> tables = sorted(p.tables(), TableInfo::tableId);
    for (int k = 0; k < tables.size(); k++) {
      long id = tables.get((a.pick() + k) % tables.size()).tableId();
      if (has.test(id)) {
        return id;
      }
    }
    return table.tableId();
  }

  /** How many partition values a file of table {@code t} must carry at {@code p}. */
  static int keyCount(CatalogSnapshot p, long t) {
    return p.partitioning(t).map(k -> k.columns().size()).orElse(0);
  }

  /** A tag set ({@code value}) or removed (null) on the table, the column, or a view. */
  private static Intent tagOn(
      CatalogSnapshot p, TableInfo table, ColumnInfo col, Action a, String value) {
    List<ViewInfo> views = sorted(p.views(), ViewInfo::viewId);
    switch (a.arg() % 3) {
      case 0:
        return new Intent.Tag(TagOn.TABLE, table.tableId(), 0, key(a), value);
      case 1:
        return new Intent.Tag(TagOn.COLUMN, table.tableId(), col.columnId(), key(a), value);
      default:
        return views.isEmpty()
            ? new Intent.Tag(TagOn.TABLE, table.tableId(), 0, key(a), value)
            : new Intent.Tag(
                TagOn.VIEW, views.get(a.pick() % views.size()).viewId(), 0, key(a), value);
    }
  }

  private static String key(Action a) {
    return TAG_KEYS.get(a.pick() % TAG_KEYS.size());
  }

  /** Performs an intent of this class; false if it is not one. */
  static boolean perform(Transaction tx, Intent intent) {
    if (intent instanceof Intent.RenameColumn i) {
      tx.renameColumn(i.tableId(), i.columnId(), i.name());
    } else if (intent instanceof Intent.ChangeColumnType i) {
      tx.changeColumnType(i.tableId(), i.columnId(), i.type());
    } else if (intent instanceof Intent.SetColumnDefault i) {
      tx.setColumnDefault(i.tableId(), i.columnId(), i.value());
    } else if (intent instanceof Intent.SetColumnNullable i) {
      tx.setColumnNullable(i.tableId(), i.columnId(), i.nullsAllowed());
    } else if (intent instanceof Intent.SetPartitionKey i) {
      tx.setPartitionKey(
          i.tableId(), i.columnIds().stream().map(c -> new PartitionKey(c, "identity")).toList());
    } else if (intent instanceof Intent.ResetPartitionKey i) {
      tx.resetPartitionKey(i.tableId());
    } else if (intent instanceof Intent.SetSortKey i) {
      tx.setSortKey(
          i.tableId(),
          i.expressions().stream()
              .map(e -> new SortKey(e, "duckdb", "ASC", "NULLS_LAST"))
              .toList());
    } else if (intent instanceof Intent.ResetSortKey i) {
      tx.resetSortKey(i.tableId());
    } else if (intent instanceof Intent.Tag i) {
      TagTarget target =
          switch (i.on()) {
            case SCHEMA -> new TagTarget.Schema(i.objectId());
            case TABLE -> new TagTarget.Table(i.objectId());
            case VIEW -> new TagTarget.View(i.objectId());
            case COLUMN -> new TagTarget.Column(i.objectId(), i.columnId());
          };
      if (i.value() == null) {
        tx.removeTag(target, i.key());
      } else if (i.key().equals("comment")) {
        tx.setComment(target, i.value());
      } else {
        tx.setTag(target, i.key(), i.value());
      }
    } else if (intent instanceof Intent.RenameView i) {
      tx.renameView(i.viewId(), i.name());
    } else if (intent instanceof Intent.UpdateColumnStats i) {
      tx.updateColumnStats(
          i.tableId(),
          i.columnId(),
          Optional.of(i.containsNull()),
          Optional.empty(),
          Optional.of(String.valueOf(i.min())),
          Optional.of(String.valueOf(i.max())),
          Optional.empty());
    } else if (intent instanceof Intent.ExpireDataFile i) {
      tx.expireDataFile(i.tableId(), i.dataFileId());
    } else if (intent instanceof Intent.ExpireDeleteFile i) {
      tx.expireDeleteFile(i.tableId(), i.deleteFileId());
    } else {
      return false;
    }
    return true;
  }

  /** Adds what this class's verbs change to a table read at {@code at}. */
  static void readInto(CatalogSnapshot at, TableInfo t, CatalogModel.Table read) {
    for (ColumnInfo c : at.columns(t.tableId())) {
      read.columnShapes.put(
          c.columnId(),
          CatalogModelAlters.shape(c.type(), c.defaultValue().orElse("-"), c.nullsAllowed()));
      Map<String, String> tags = live(c.tags(), at);
      if (!tags.isEmpty()) {
        read.columnTags.put(c.columnId(), tags);
      }
    }
    read.tags.putAll(live(at.tags(t.tableId()), at));
    read.partition =
        at.partitioning(t.tableId())
            .map(s -> s.columns().stream().map(PartitionSpec.Column::columnId).toList())
            .orElse(null);
    read.sort =
        at.sorting(t.tableId())
            .map(s -> s.expressions().stream().map(SortSpec.Expression::expression).toList())
            .orElse(null);
  }

  /** The tags of the schemas or views {@code ids} that have any, at {@code at}. */
  static Map<Long, Map<String, String>> objectTags(CatalogSnapshot at, Set<Long> ids) {
    Map<Long, Map<String, String>> out = new TreeMap<>();
    for (long id : ids) {
      Map<String, String> tags = live(at.tags(id), at);
      if (!tags.isEmpty()) {
        out.put(id, tags);
      }
    }
    return out;
  }

  /** Table column statistics at the head, as the model keeps them. */
  static Map<Long, List<String>> columnStats(CatalogSnapshot head, long tableId) {
    Map<Long, List<String>> out = new TreeMap<>();
    for (ColumnStats s : head.columnStats(tableId)) {
      out.put(
          s.columnId(),
          java.util.Arrays.asList(
              s.containsNull().map(String::valueOf).orElse(null),
              s.containsNan().map(String::valueOf).orElse(null),
              s.minValue().orElse(null),
              s.maxValue().orElse(null),
              s.extraStats().orElse(null)));
    }
    return out;
  }

  /** The entries live at {@code at} (an entry carries its end even when read before it). */
  private static Map<String, String> live(List<TagEntry> tags, CatalogSnapshot at) {
    long s = at.snapshotId();
    Map<String, String> out = new TreeMap<>();
    for (TagEntry e : tags) {
      if (e.beginSnapshot() <= s
          && (e.endSnapshot().isEmpty() || e.endSnapshot().getAsLong() > s)
          && out.put(e.key(), e.value()) != null) {
        throw new AssertionError("two live entries for tag " + e.key() + " at snapshot " + s);
      }
    }
    return out;
  }

  private static <T> List<T> sorted(List<T> items, java.util.function.ToLongFunction<T> id) {
    List<T> out = new ArrayList<>(items);
    out.sort(Comparator.comparingLong(id));
    return out;
  }
}
