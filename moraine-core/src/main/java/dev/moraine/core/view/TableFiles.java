package dev.moraine.core.view;

import com.google.protobuf.Message;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.inline.InlineRowsReader;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.kv.KvReadView;
import java.util.List;
import java.util.SortedMap;

/**
 * Where one table's rows are at one snapshot: its live data files, delete files and per-file column
 * statistics, and its live inlined rows, all read in one consistent load (RFC 0003 §3.3.2).
 *
 * <p>Why together: a flush of inlined data deletes the chunks it drains and registers a data file
 * backdated to the first chunk's snapshot (RFC 0004 §3), so what an earlier snapshot reads from the
 * store changes when a flush lands. A file list read before the flush and inlined rows read after
 * it would hold the flushed rows nowhere; read together, either the rows are inlined or the file
 * holding them is listed, and a view that keeps the four keeps reading the same rows whatever lands
 * later. Immutable.
 */
public record TableFiles(
    SortedMap<KeyBytes, Message> dataFiles,
    SortedMap<KeyBytes, Message> deleteFiles,
    SortedMap<KeyBytes, Message> fileColumnStats,
    InlinedRows inlined) {

  /** The record kinds a table's files are made of, each kept as one range per table. */
  static final List<EntityKind> KINDS =
      List.of(EntityKind.DATA_FILE, EntityKind.DELETE_FILE, EntityKind.FILE_COLUMN_STATS);

  /** Reads the table's files and inlined rows live at {@code at}, all through {@code view}. */
  static TableFiles read(KvReadView view, long tableId, long at) {
    return new TableFiles(
        EntityVersions.allAt(view, EntityKind.DATA_FILE, tableId, at),
        EntityVersions.allAt(view, EntityKind.DELETE_FILE, tableId, at),
        EntityVersions.allAt(view, EntityKind.FILE_COLUMN_STATS, tableId, at),
        InlineRowsReader.read(view, tableId, at));
  }

  /** The range of one of {@link #KINDS}. */
  SortedMap<KeyBytes, Message> range(EntityKind kind) {
    return switch (kind) {
      case DATA_FILE -> dataFiles;
      case DELETE_FILE -> deleteFiles;
      case FILE_COLUMN_STATS -> fileColumnStats;
      default -> throw new IllegalArgumentException(kind + " is not a kind of a table's files");
    };
  }

  /** The prefix under which a view keeps the range of {@code kind} of {@code tableId}. */
  static KeyBytes prefix(EntityKind kind, long tableId) {
    return new KeyBytes(KeyPrefixes.currentOfTable(kind, tableId));
  }
}
