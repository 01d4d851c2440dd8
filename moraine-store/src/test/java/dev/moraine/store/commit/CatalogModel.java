package dev.moraine.store.commit;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
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

    record AddColumn(long tableId, String name) implements Intent {}

    record DropColumn(long tableId, long columnId) implements Intent {}

    record CreateView(long schemaId, String name) implements Intent {}

    record DropView(long viewId) implements Intent {}

    record RegisterFile(long tableId, long rows) implements Intent {}

    record RegisterDelete(long tableId, long dataFileId) implements Intent {}

    record UpdateStats(long tableId, long recordCount, long sizeBytes) implements Intent {}

    record SetOption(String key, String value) implements Intent {}
  }

  /** A live table: schema, name, columns by id, data files (id → row start, count), deletes. */
  record Table(
      long schemaId,
      String name,
      Map<Long, String> columns,
      long nextColumnId,
      Map<Long, long[]> files,
      Map<Long, Long> deletes) {
    String describe() {
      StringBuilder b = new StringBuilder();
      b.append(schemaId).append('.').append(name).append(" columns ").append(columns);
      b.append(" next column ").append(nextColumnId).append(" files");
      files.forEach(
          (id, f) -> b.append(' ').append(id).append("@").append(f[0]).append('+').append(f[1]));
      b.append(" deletes ").append(deletes);
      return b.toString();
    }

    Table copy() {
      Map<Long, long[]> f = new TreeMap<>();
      files.forEach((k, v) -> f.put(k, v.clone()));
      return new Table(
          schemaId, name, new TreeMap<>(columns), nextColumnId, f, new TreeMap<>(deletes));
    }
  }

  /** The file size every registered data file declares (the test registers them all alike). */
  static final long FILE_SIZE = 1_000;

  private final Map<Long, String> schemas;
  private final Map<Long, Table> tables;
  private final Map<Long, String> views; // id → "schemaId.name"
  private final Map<Long, long[]> stats; // table id → record count, file size, next row id
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
    return new CatalogModel(
        new TreeMap<>(schemas), t, new TreeMap<>(views), s, nextCatalogId, nextFileId);
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

  long nextCatalogId() {
    return nextCatalogId;
  }

  long nextFileId() {
    return nextFileId;
  }

  private static boolean same(String a, String b) {
    return a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT));
  }

  private boolean relationTaken(long schemaId, String name, long except) {
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
              || views.values().stream().anyMatch(v -> v.startsWith(i.schemaId() + "."));
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
      tables.put(
          id,
          new Table(
              i.schemaId(), i.name(), cols, i.columns() + 1L, new TreeMap<>(), new TreeMap<>()));
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
      tables.put(
          i.tableId(),
          new Table(t.schemaId(), i.name(), t.columns(), t.nextColumnId(), t.files(), t.deletes()));
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
      tables.put(
          i.tableId(),
          new Table(
              t.schemaId(), t.name(), t.columns(), t.nextColumnId() + 1, t.files(), t.deletes()));
    } else if (intent instanceof Intent.DropColumn i) {
      Table t = tables.get(i.tableId());
      if (t == null || !t.columns().containsKey(i.columnId())) {
        return NotFoundException.class;
      }
      if (t.columns().size() == 1) {
        return InvalidArgumentException.class;
      }
      t.columns().remove(i.columnId());
    } else if (intent instanceof Intent.CreateView i) {
      if (!schemas.containsKey(i.schemaId())) {
        return NotFoundException.class;
      }
      if (relationTaken(i.schemaId(), i.name(), -1)) {
        return AlreadyExistsException.class;
      }
      views.put(nextCatalogId++, i.schemaId() + "." + i.name());
    } else if (intent instanceof Intent.DropView i) {
      if (views.remove(i.viewId()) == null) {
        return NotFoundException.class;
      }
    } else if (intent instanceof Intent.RegisterFile i) {
      Table t = tables.get(i.tableId());
      if (t == null) {
        return NotFoundException.class;
      }
      long[] s = stats.get(i.tableId());
      t.files().put(nextFileId++, new long[] {s[2], i.rows()});
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
    } else {
      throw new AssertionError("unknown intent " + intent);
    }
    return null;
  }
}
