package dev.moraine.store.commit;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A deliberately simple reference model of a catalog, for {@link
 * ConcurrentVerbModelPropertiesTest}: plain maps of what is live, the id counters, and the rules a
 * verb must follow, written without the catalog's code. {@link #apply} either changes the model as
 * the verb must change the catalog and returns null, or changes nothing and returns the typed error
 * the verb must raise.
 */
final class CatalogModel {
  /** What one commit means to do. */
  sealed interface Intent {
    record CreateSchema(String name) implements Intent {}

    record DropSchema(long schemaId) implements Intent {}

    record CreateTable(long schemaId, String name, int columns) implements Intent {}

    record RenameTable(long tableId, String name) implements Intent {}

    record DropTable(long tableId) implements Intent {}

    record AddColumn(long tableId, String name, String type) implements Intent {}

    record DropColumn(long tableId, long columnId) implements Intent {}

    record CreateView(long schemaId, String name) implements Intent {}

    record DropView(long viewId) implements Intent {}

    /** A data file of {@code rows} rows carrying {@code partitionValues} partition values. */
    record RegisterFile(long tableId, long rows, int partitionValues) implements Intent {}

    record RegisterDelete(long tableId, long dataFileId) implements Intent {}

    record UpdateStats(long tableId, long recordCount, long sizeBytes) implements Intent {}

    record SetOption(String key, String value) implements Intent {}

    record InsertInlined(long tableId, int rows) implements Intent {}

    record DeleteInline(long tableId, long rowId) implements Intent {}

    /**
     * A flush whose data file holds {@code rows} rows (0: no data file), with a row delete file or
     * not, and delete files for the data files {@code fileDeletes}.
     */
    record Flush(long tableId, long rows, boolean rowDeletes, java.util.Set<Long> fileDeletes)
        implements Intent {}

    record RegisterByName(long tableId, long rows, java.util.List<String> fields)
        implements Intent {}

    record MoveTable(long tableId, long schemaId) implements Intent {}

    record AlterView(long viewId, String sql) implements Intent {}

    record CreateMacro(long schemaId, String name, boolean table) implements Intent {}

    record DropMacro(long macroId) implements Intent {}

    // The intents of CatalogModelAlters: column alters, layout, tags, view renames, column
    // statistics and expiry.

    record RenameColumn(long tableId, long columnId, String name) implements Intent {}

    record ChangeColumnType(long tableId, long columnId, String type) implements Intent {}

    /** Sets a column's default, or drops it ({@code value} null). */
    record SetColumnDefault(long tableId, long columnId, String value) implements Intent {}

    record SetColumnNullable(long tableId, long columnId, boolean nullsAllowed) implements Intent {}

    /** A partition key of identity transforms over {@code columnIds}, in order. */
    record SetPartitionKey(long tableId, List<Long> columnIds) implements Intent {}

    record ResetPartitionKey(long tableId) implements Intent {}

    record SetSortKey(long tableId, List<String> expressions) implements Intent {}

    record ResetSortKey(long tableId) implements Intent {}

    /**
     * Sets a tag ({@code value} not null) or removes it ({@code value} null) on a schema, table,
     * view or column ({@code columnId} used only for a column); a comment is the key {@code
     * comment}.
     */
    record Tag(TagOn on, long objectId, long columnId, String key, String value)
        implements Intent {}

    record RenameView(long viewId, String name) implements Intent {}

    record UpdateColumnStats(long tableId, long columnId, boolean containsNull, long min, long max)
        implements Intent {}

    record ExpireDataFile(long tableId, long dataFileId) implements Intent {}

    record ExpireDeleteFile(long tableId, long deleteFileId) implements Intent {}
  }

  /** What a {@link Intent.Tag} is set on. */
  enum TagOn {
    SCHEMA,
    TABLE,
    VIEW,
    COLUMN
  }

  /**
   * A live table: schema, name, columns by id, data files (id → row start, count), delete files (id
   * → data file), mappings, comments, and what is inlined: rows (id → the table's shape epoch when
   * inlined), inlined rows deleted, rows of data files deleted inline (data file → rows).
   */
  static final class Table {
    long schemaId;
    String name;
    final Map<Long, String> columns;
    long nextColumnId;
    final Map<Long, long[]> files;
    final Map<Long, Long> deletes;
    final java.util.Set<Long> mappings = new java.util.TreeSet<>();

    /** Per column: its type, default and nullability, as {@link CatalogModelAlters#shape}. */
    final Map<Long, String> columnShapes = new TreeMap<>();

    /** Live tags (comments included, key {@code comment}): the table's, and its columns'. */
    final Map<String, String> tags = new TreeMap<>();

    final Map<Long, Map<String, String>> columnTags = new TreeMap<>();

    /** The partition key's column ids, or null; the sort key's expressions, or null. */
    List<Long> partition;

    List<String> sort;

    /**
     * Table column statistics (unversioned), by column id, dropped columns' included: contains
     * null, contains NaN, min, max, extra (null for absent).
     */
    final Map<Long, String[]> columnStats = new TreeMap<>();

    /**
     * Counts the inlined-data versions the table registers (a creation, rename, move, partition key
     * change, or a change of its columns' names or types adds one; a default, a NOT NULL marker, a
     * tag or a comment does not, RFC 0004 §8.2 item 5): rows inlined under different counts differ.
     */
    long epoch;

    /** The epoch its live partitioning began with; rows inlined under it are partitioned. */
    long partitionEpoch = -1;

    final Map<Long, Long> inlined = new TreeMap<>();
    final java.util.Set<Long> tombstones = new java.util.TreeSet<>();
    final Map<Long, java.util.Set<Long>> fileRowDeletes = new TreeMap<>();

    /** The snapshot that inlined each row, deleted each inlined row, first deleted a file's row. */
    final Map<Long, Long> inlinedAt = new TreeMap<>();

    final Map<Long, Long> tombstonedAt = new TreeMap<>();
    final Map<Long, Long> fileDeletedAt = new TreeMap<>();

    Table(
        long schemaId,
        String name,
        Map<Long, String> columns,
        long nextColumnId,
        Map<Long, long[]> files,
        Map<Long, Long> deletes) {
      this.schemaId = schemaId;
      this.name = name;
      this.columns = columns;
      this.nextColumnId = nextColumnId;
      this.files = files;
      this.deletes = deletes;
    }

    long schemaId() {
      return schemaId;
    }

    String name() {
      return name;
    }

    Map<Long, String> columns() {
      return columns;
    }

    long nextColumnId() {
      return nextColumnId;
    }

    Map<Long, long[]> files() {
      return files;
    }

    Map<Long, Long> deletes() {
      return deletes;
    }

    /** The inlined rows not deleted. */
    java.util.Set<Long> liveInlined() {
      java.util.Set<Long> live = new java.util.TreeSet<>(inlined.keySet());
      live.removeAll(tombstones);
      return live;
    }

    String describe() {
      StringBuilder b = new StringBuilder();
      b.append(schemaId).append('.').append(name).append(" columns ").append(columns);
      // next_column_id changes in place (RFC 0002 §12.1): checked at the head only.
      b.append(" files");
      files.forEach(
          (id, f) -> b.append(' ').append(id).append("@").append(f[0]).append('+').append(f[1]));
      b.append(" deletes ").append(deletes);
      b.append(" shapes ").append(columnShapes);
      b.append(" tags ").append(tags).append(" column tags ").append(columnTags);
      b.append(" partition ").append(partition).append(" sort ").append(sort);
      b.append(" inlined live ").append(liveInlined());
      return b.toString();
    }

    Table copy() {
      Map<Long, long[]> f = new TreeMap<>();
      files.forEach((k, v) -> f.put(k, v.clone()));
      Table t =
          new Table(
              schemaId, name, new TreeMap<>(columns), nextColumnId, f, new TreeMap<>(deletes));
      t.mappings.addAll(mappings);
      t.columnShapes.putAll(columnShapes);
      t.tags.putAll(tags);
      columnTags.forEach((k, v) -> t.columnTags.put(k, new TreeMap<>(v)));
      t.partition = partition;
      t.sort = sort;
      columnStats.forEach((k, v) -> t.columnStats.put(k, v.clone()));
      t.epoch = epoch;
      t.partitionEpoch = partitionEpoch;
      t.inlined.putAll(inlined);
      t.tombstones.addAll(tombstones);
      fileRowDeletes.forEach((k, v) -> t.fileRowDeletes.put(k, new java.util.TreeSet<>(v)));
      t.inlinedAt.putAll(inlinedAt);
      t.tombstonedAt.putAll(tombstonedAt);
      t.fileDeletedAt.putAll(fileDeletedAt);
      return t;
    }
  }

  /** The file size every registered data file declares (the test registers them all alike). */
  static final long FILE_SIZE = 1_000;

  private final Map<Long, String> schemas;
  private final Map<Long, Table> tables;
  private final Map<Long, String> views; // id → "schemaId.name"
  private final Map<Long, long[]> stats; // table id → record count, file size, next row id
  private final Map<Long, String> viewSql = new TreeMap<>();

  /** Live tags of schemas and views, by object id (a table keeps its own). */
  private final Map<Long, Map<String, String>> objectTags = new TreeMap<>();

  private final Map<Long, String> macros = new TreeMap<>(); // id → "schemaId.name.type"

  /**
   * A file a flush registered, begun before the flush (RFC 0004 §3): reading an earlier snapshot
   * after the flush shows it from {@code begin} on, in place of the inlined rows it took.
   */
  record Backdated(
      long tableId,
      long fileId,
      long target,
      long rowStart,
      long rows,
      long begin,
      long flushedAt) {}

  private final List<Backdated> backdated = new ArrayList<>();

  /** The snapshot the next {@link #apply} mints (what inlined records are stamped with). */
  long at;

  private long nextCatalogId;
  private long nextFileId;

  private CatalogModel(
      Map<Long, String> schemas,
      Map<Long, Table> tables,
      Map<Long, String> views,
      Map<Long, long[]> stats,
      long nextCatalogId,
      long nextFileId) {
    this.schemas = schemas;
    this.tables = tables;
    this.views = views;
    this.stats = stats;
    this.nextCatalogId = nextCatalogId;
    this.nextFileId = nextFileId;
  }

  /** A new catalog: the schema {@code main} (id 0) and nothing else. */
  static CatalogModel bootstrap() {
    Map<Long, String> schemas = new TreeMap<>();
    schemas.put(0L, "main");
    return new CatalogModel(schemas, new TreeMap<>(), new TreeMap<>(), new TreeMap<>(), 1, 0);
  }

  CatalogModel copy() {
    Map<Long, Table> t = new TreeMap<>();
    tables.forEach((k, v) -> t.put(k, v.copy()));
    Map<Long, long[]> s = new TreeMap<>();
    stats.forEach((k, v) -> s.put(k, v.clone()));
    CatalogModel m =
        new CatalogModel(
            new TreeMap<>(schemas), t, new TreeMap<>(views), s, nextCatalogId, nextFileId);
    m.viewSql.putAll(viewSql);
    objectTags.forEach((k, v) -> m.objectTags.put(k, new TreeMap<>(v)));
    m.macros.putAll(macros);
    m.backdated.addAll(backdated);
    m.at = at;
    return m;
  }

  /** Live views: id → SQL text. */
  Map<Long, String> viewSql() {
    return viewSql;
  }

  /** The tags of the live schemas or views ({@code ids}) that have any: id → key → value. */
  Map<Long, Map<String, String>> objectTags(java.util.Set<Long> ids) {
    Map<Long, Map<String, String>> live = new TreeMap<>();
    objectTags.forEach(
        (id, tags) -> {
          if (ids.contains(id) && !tags.isEmpty()) {
            live.put(id, tags);
          }
        });
    return live;
  }

  /** The live tags of a schema or view, created empty on first use. */
  Map<String, String> tagsOf(long objectId) {
    return objectTags.computeIfAbsent(objectId, k -> new TreeMap<>());
  }

  /** Live macros: id → "schemaId.name.scalar|table". */
  Map<Long, String> macros() {
    return macros;
  }

  Map<Long, String> schemas() {
    return schemas;
  }

  Map<Long, Table> tables() {
    return tables;
  }

  Map<Long, String> views() {
    return views;
  }

  /** Statistics of the live tables: record count, file size, next row id. */
  Map<Long, long[]> stats() {
    Map<Long, long[]> live = new TreeMap<>();
    tables.keySet().forEach(id -> live.put(id, stats.get(id)));
    return live;
  }

  void backdate(Backdated b) {
    backdated.add(b);
  }

  /**
   * This model (of snapshot {@code at}) as it reads once {@code later}'s flushes have landed: each
   * file flushed after {@code at} but begun by then is there, and the inlined rows it took are not.
   */
  CatalogModel asReadAfter(CatalogModel later) {
    CatalogModel view = copy();
    for (Backdated b : later.backdated) {
      Table t = view.tables.get(b.tableId());
      if (b.flushedAt() <= at || b.begin() > at || t == null) {
        continue;
      }
      if (b.target() < 0) {
        t.files().put(b.fileId(), new long[] {b.rowStart(), b.rows()});
        for (long r = b.rowStart(); r < b.rowStart() + b.rows(); r++) {
          t.inlined.remove(r);
          t.tombstones.remove(r);
        }
      } else {
        t.deletes().put(b.fileId(), b.target());
      }
    }
    return view;
  }

  long takeCatalogId() {
    return nextCatalogId++;
  }

  long takeFileId() {
    return nextFileId++;
  }

  /** The live statistics record of a table: record count, file size, next row id. */
  long[] statsOf(long tableId) {
    return stats.get(tableId);
  }

  long nextCatalogId() {
    return nextCatalogId;
  }

  long nextFileId() {
    return nextFileId;
  }

  static boolean same(String a, String b) {
    return a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT));
  }

  boolean relationTaken(long schemaId, String name, long except) {
    return tables.entrySet().stream()
            .anyMatch(
                e ->
                    e.getKey() != except
                        && e.getValue().schemaId() == schemaId
                        && same(e.getValue().name(), name))
        || views.values().stream()
            .anyMatch(
                v -> v.startsWith(schemaId + ".") && same(v.substring(v.indexOf('.') + 1), name));
  }

  /** Applies {@code intent}; null if accepted, else the error it must raise (model unchanged). */
  Class<? extends RuntimeException> apply(Intent intent) {
    if (intent instanceof Intent.CreateSchema i) {
      if (schemas.values().stream().anyMatch(n -> same(n, i.name()))) {
        return AlreadyExistsException.class;
      }
      schemas.put(nextCatalogId++, i.name());
    } else if (intent instanceof Intent.DropSchema i) {
      if (!schemas.containsKey(i.schemaId())) {
        return NotFoundException.class;
      }
      boolean occupied =
          tables.values().stream().anyMatch(t -> t.schemaId() == i.schemaId())
              || views.values().stream().anyMatch(v -> v.startsWith(i.schemaId() + "."))
              || macros.values().stream().anyMatch(v -> v.startsWith(i.schemaId() + "."));
      if (occupied) {
        return InvalidArgumentException.class;
      }
      schemas.remove(i.schemaId());
    } else if (intent instanceof Intent.CreateTable i) {
      if (!schemas.containsKey(i.schemaId())) {
        return NotFoundException.class;
      }
      if (relationTaken(i.schemaId(), i.name(), -1)) {
        return AlreadyExistsException.class;
      }
      Map<Long, String> cols = new TreeMap<>();
      for (int c = 0; c < i.columns(); c++) {
        cols.put(c + 1L, "c" + c);
      }
      long id = nextCatalogId++;
      Table created =
          new Table(
              i.schemaId(), i.name(), cols, i.columns() + 1L, new TreeMap<>(), new TreeMap<>());
      cols.keySet()
          .forEach(
              c ->
                  created.columnShapes.put(
                      c,
                      CatalogModelAlters.shape(ConcurrentAlterChoices.createdType((int) (c - 1)))));
      tables.put(id, created);
      stats.put(id, new long[] {0, 0, 0});
    } else if (intent instanceof Intent.RenameTable i) {
      Table t = tables.get(i.tableId());
      if (t == null) {
        return NotFoundException.class;
      }
      if (t.name().equals(i.name())) {
        return InvalidArgumentException.class;
      }
      if (relationTaken(t.schemaId(), i.name(), i.tableId())) {
        return AlreadyExistsException.class;
      }
      t.name = i.name();
      t.epoch++;
    } else if (intent instanceof Intent.DropTable i) {
      if (tables.remove(i.tableId()) == null) {
        return NotFoundException.class;
      }
    } else if (intent instanceof Intent.AddColumn i) {
      Table t = tables.get(i.tableId());
      if (t == null) {
        return NotFoundException.class;
      }
      if (t.columns().values().stream().anyMatch(n -> same(n, i.name()))) {
        return AlreadyExistsException.class;
      }
      t.columns().put(t.nextColumnId(), i.name());
      t.columnShapes.put(t.nextColumnId(), CatalogModelAlters.shape(i.type()));
      t.nextColumnId++;
      t.epoch++;
    } else if (intent instanceof Intent.DropColumn i) {
      Table t = tables.get(i.tableId());
      if (t == null || !t.columns().containsKey(i.columnId())) {
        return NotFoundException.class;
      }
      if (t.columns().size() == 1) {
        return InvalidArgumentException.class;
      }
      t.columns().remove(i.columnId());
      t.columnShapes.remove(i.columnId());
      t.columnTags.remove(i.columnId());
      t.epoch++;
    } else if (intent instanceof Intent.CreateView i) {
      if (!schemas.containsKey(i.schemaId())) {
        return NotFoundException.class;
      }
      if (relationTaken(i.schemaId(), i.name(), -1)) {
        return AlreadyExistsException.class;
      }
      viewSql.put(nextCatalogId, "SELECT 1");
      views.put(nextCatalogId++, i.schemaId() + "." + i.name());
    } else if (intent instanceof Intent.DropView i) {
      if (views.remove(i.viewId()) == null) {
        return NotFoundException.class;
      }
      viewSql.remove(i.viewId());
    } else if (intent instanceof Intent.RegisterFile i) {
      Table t = tables.get(i.tableId());
      if (t == null) {
        return NotFoundException.class;
      }
      if (i.partitionValues() != (t.partition == null ? 0 : t.partition.size())) {
        return InvalidArgumentException.class;
      }
      long[] s = stats.get(i.tableId());
      t.files().put(nextFileId++, new long[] {s[2], i.rows()});
      // Registered without column statistics: the live columns' bounds become unknown (a dropped
      // column's record stays as it was).
      t.columnStats.keySet().removeAll(t.columns().keySet());
      s[0] += i.rows();
      s[1] += FILE_SIZE;
      s[2] += i.rows();
    } else if (intent instanceof Intent.RegisterDelete i) {
      Table t = tables.get(i.tableId());
      if (t == null || !t.files().containsKey(i.dataFileId())) {
        return NotFoundException.class;
      }
      if (t.deletes().containsValue(i.dataFileId())) {
        return InvalidArgumentException.class;
      }
      t.deletes().put(nextFileId++, i.dataFileId());
    } else if (intent instanceof Intent.UpdateStats i) {
      if (!tables.containsKey(i.tableId())) {
        return NotFoundException.class;
      }
      long[] s = stats.get(i.tableId());
      s[0] = i.recordCount();
      s[1] = i.sizeBytes();
    } else if (intent instanceof Intent.SetOption) {
      // Options live outside the snapshot protocol; the test checks them at the head.
    } else if (CatalogModelAlters.handles(intent)) {
      return CatalogModelAlters.apply(this, intent);
    } else if (CatalogModelInline.handles(intent)) {
      Class<? extends RuntimeException> refusal =
          CatalogModelAlters.refusedUnpartitioned(this, intent);
      if (refusal == null) {
        refusal = CatalogModelInline.apply(this, intent);
      }
      if (refusal == null) {
        CatalogModelAlters.inlinedStats(this, intent);
      }
      return refusal;
    } else if (intent instanceof Intent.MoveTable i) {
      Table t = tables.get(i.tableId());
      if (t == null || !schemas.containsKey(i.schemaId())) {
        return NotFoundException.class;
      }
      if (relationTaken(i.schemaId(), t.name(), i.tableId())) {
        return AlreadyExistsException.class;
      }
      if (t.schemaId() == i.schemaId()) {
        return InvalidArgumentException.class;
      }
      t.schemaId = i.schemaId();
      t.epoch++;
    } else if (intent instanceof Intent.AlterView i) {
      if (!views.containsKey(i.viewId())) {
        return NotFoundException.class;
      }
      viewSql.put(i.viewId(), i.sql());
    } else if (intent instanceof Intent.CreateMacro i) {
      if (!schemas.containsKey(i.schemaId())) {
        return NotFoundException.class;
      }
      String type = i.table() ? "table" : "scalar";
      if (macros.values().stream()
          .anyMatch(
              v ->
                  v.toLowerCase(Locale.ROOT)
                      .equals(
                          (i.schemaId() + "." + i.name() + "." + type).toLowerCase(Locale.ROOT)))) {
        return AlreadyExistsException.class;
      }
      macros.put(nextCatalogId++, i.schemaId() + "." + i.name() + "." + type);
    } else if (intent instanceof Intent.DropMacro i) {
      if (macros.remove(i.macroId()) == null) {
        return NotFoundException.class;
      }
    } else {
      throw new AssertionError("unknown intent " + intent);
    }
    return null;
  }
}
