package dev.moraine.store.commit;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.store.commit.CatalogModel.Intent;
import dev.moraine.store.commit.CatalogModel.Table;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The part of {@link CatalogModel} for inlined data and files mapped by name (RFC 0004 §3), written
 * from the verbs' documented rules rather than their code: row ids dense per table from its next
 * row id, one file id per inlining commit, tombstones for inlined rows and pending deletions for
 * data-file rows, and a flush that must name exactly what is inlined.
 */
final class CatalogModelInline {
  private CatalogModelInline() {}

  static boolean handles(Intent intent) {
    return intent instanceof Intent.InsertInlined
        || intent instanceof Intent.DeleteInline
        || intent instanceof Intent.Flush
        || intent instanceof Intent.RegisterByName;
  }

  /** As {@link CatalogModel#apply}: null if accepted, else the error (model unchanged). */
  static Class<? extends RuntimeException> apply(CatalogModel m, Intent intent) {
    if (intent instanceof Intent.InsertInlined i) {
      Table t = m.tables().get(i.tableId());
      if (t == null) {
        return NotFoundException.class;
      }
      if (i.rows() == 0) {
        return InvalidArgumentException.class;
      }
      long[] s = m.statsOf(i.tableId());
      for (long r = 0; r < i.rows(); r++) {
        t.inlined.put(s[2] + r, t.epoch);
        t.inlinedAt.put(s[2] + r, m.at);
      }
      s[0] += i.rows();
      s[2] += i.rows();
      m.takeFileId();
    } else if (intent instanceof Intent.DeleteInline i) {
      Table t = m.tables().get(i.tableId());
      if (t == null) {
        return NotFoundException.class;
      }
      if (t.inlined.containsKey(i.rowId())) {
        if (!t.tombstones.add(i.rowId())) {
          return NotFoundException.class;
        }
        t.tombstonedAt.put(i.rowId(), m.at);
        return null;
      }
      for (var f : t.files().entrySet()) {
        long start = f.getValue()[0];
        if (i.rowId() >= start && i.rowId() < start + f.getValue()[1]) {
          Set<Long> pending = t.fileRowDeletes.computeIfAbsent(f.getKey(), k -> new TreeSet<>());
          if (!pending.add(i.rowId())) {
            return NotFoundException.class;
          }
          t.fileDeletedAt.putIfAbsent(f.getKey(), m.at);
          return null;
        }
      }
      return NotFoundException.class;
    } else if (intent instanceof Intent.Flush i) {
      return flush(m, i);
    } else if (intent instanceof Intent.RegisterByName i) {
      Table t = m.tables().get(i.tableId());
      if (t == null) {
        return NotFoundException.class;
      }
      if (i.fields().isEmpty()) {
        return InvalidArgumentException.class;
      }
      Set<String> live = new TreeSet<>();
      t.columns().values().forEach(c -> live.add(c.toLowerCase(Locale.ROOT)));
      Set<String> named = new TreeSet<>();
      for (String f : i.fields()) {
        if (!live.contains(f.toLowerCase(Locale.ROOT))) {
          return NotFoundException.class;
        }
      }
      for (String f : i.fields()) {
        if (!named.add(f.toLowerCase(Locale.ROOT))) {
          return InvalidArgumentException.class;
        }
      }
      if (!named.equals(live)) {
        return InvalidArgumentException.class;
      }
      long mapping = m.takeFileId();
      long[] s = m.statsOf(i.tableId());
      t.files().put(m.takeFileId(), new long[] {s[2], i.rows()});
      t.mappings.add(mapping);
      // Registered without column statistics: the live columns' bounds become unknown (a dropped
      // column's record stays as it was).
      t.columnStats.keySet().removeAll(t.columns().keySet());
      s[0] += i.rows();
      s[1] += CatalogModel.FILE_SIZE;
      s[2] += i.rows();
    } else {
      throw new AssertionError("not an inline intent " + intent);
    }
    return null;
  }

  private static Class<? extends RuntimeException> flush(CatalogModel m, Intent.Flush i) {
    Table t = m.tables().get(i.tableId());
    if (t == null) {
      return NotFoundException.class;
    }
    Set<Long> withDeletes = new TreeSet<>();
    t.fileRowDeletes.forEach(
        (file, rows) -> {
          if (!rows.isEmpty()) {
            withDeletes.add(file);
          }
        });
    if (t.inlined.isEmpty() && withDeletes.isEmpty()) {
      return InvalidArgumentException.class;
    }
    if (!t.inlined.isEmpty()) {
      long first = ((TreeMap<Long, Long>) t.inlined).firstKey();
      long last = ((TreeMap<Long, Long>) t.inlined).lastKey();
      boolean oneEpoch = new TreeSet<>(t.inlined.values()).size() == 1;
      if (!oneEpoch || last - first + 1 != t.inlined.size() || i.rows() != t.inlined.size()) {
        return InvalidArgumentException.class;
      }
    } else if (i.rows() != 0) {
      return InvalidArgumentException.class;
    }
    if (i.rowDeletes() == t.tombstones.isEmpty() || !i.fileDeletes().equals(withDeletes)) {
      return InvalidArgumentException.class;
    }
    for (long file : withDeletes) {
      if (t.deletes().containsValue(file)) {
        return InvalidArgumentException.class;
      }
    }
    // File ids go as stock DuckLake gives them: the flushed data file, the delete files of data
    // files by data file id, then the delete file of the flushed rows.
    long[] s = m.statsOf(i.tableId());
    long dataFile = -1;
    if (!t.inlined.isEmpty()) {
      dataFile = m.takeFileId();
      long first = ((TreeMap<Long, Long>) t.inlined).firstKey();
      t.files().put(dataFile, new long[] {first, i.rows()});
      s[1] += CatalogModel.FILE_SIZE;
      long begin = t.inlinedAt.values().stream().min(Long::compare).orElseThrow();
      m.backdate(
          new CatalogModel.Backdated(i.tableId(), dataFile, -1, first, i.rows(), begin, m.at));
    }
    for (long file : withDeletes) {
      long deleteFile = m.takeFileId();
      t.deletes().put(deleteFile, file);
      m.backdate(
          new CatalogModel.Backdated(
              i.tableId(), deleteFile, file, 0, 0, t.fileDeletedAt.get(file), m.at));
    }
    if (i.rowDeletes()) {
      long rowDeletes = m.takeFileId();
      t.deletes().put(rowDeletes, dataFile);
      long deletedAt = t.tombstonedAt.values().stream().min(Long::compare).orElseThrow();
      m.backdate(
          new CatalogModel.Backdated(i.tableId(), rowDeletes, dataFile, 0, 0, deletedAt, m.at));
    }
    t.inlined.clear();
    t.tombstones.clear();
    t.fileRowDeletes.clear();
    t.inlinedAt.clear();
    t.tombstonedAt.clear();
    t.fileDeletedAt.clear();
    return null;
  }
}
