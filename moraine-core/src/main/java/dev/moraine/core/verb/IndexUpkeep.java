package dev.moraine.core.verb;

import dev.moraine.core.catalog.DuplicateIndexValueException;
import dev.moraine.core.catalog.FileIndexValues;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.index.ArrowIndexValues;
import dev.moraine.core.index.IndexKeyEncoder;
import dev.moraine.core.index.IndexKeyValue;
import dev.moraine.core.index.InlinedIndexValues;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.core.keyspace.value.IndexEntryValues;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.view.KeyBytes;
import dev.moraine.core.view.Records;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The equality-index entries of one closure run (RFC 0002 §10.2), kept as the Rust implementation
 * keeps them: each inlined row a verb adds gets an entry in every ready index of its table, and
 * each inlined row a verb ends (a delete, or the old version of an update) gives its entries up.
 *
 * <p>The verbs only derive entries ({@link #add}, {@link #remove}); nothing is decided until the
 * closure has returned, when {@link #resolve} turns them into the commit's index writes against the
 * premise, removals first:
 *
 * <ul>
 *   <li>a removal from a non-unique shape deletes its key (the key names the row);
 *   <li>a removal from a unique shape deletes the key only when the stored entry names the same
 *       row: the key is the value alone, and a removal derived for a row that no longer holds the
 *       value must not take the entry of the row that does;
 *   <li>an addition in a non-unique shape (a non-unique index, or any value with a NULL in it) puts
 *       its key;
 *   <li>an addition in a unique shape is refused ({@link DuplicateIndexValueException}) when
 *       another row of the same run claims the value, or when the premise's entry names another row
 *       and this run did not remove it; a claim of the value the row already holds writes nothing.
 * </ul>
 *
 * <p>Why reading the premise is enough. The premise reads through the batch's store transaction,
 * which shows the head the batch began at with the earlier members' writes on top, so a value an
 * earlier member of the batch claimed is seen as held. A commit landing meanwhile writes {@code
 * sys/head}, as this batch does, so the store refuses this batch as a lost race and the closure
 * runs again against the new head: a unique entry cannot be put by two commits that did not see
 * each other.
 *
 * <p>Limits, as the Rust implementation's: at most {@value #MAX_ENTRIES} entries and {@value
 * #MAX_BYTES} encoded key and value bytes per commit.
 *
 * <p>Confined to the thread running the closure, like the rest of {@link VerbState}.
 */
public final class IndexUpkeep {
  /** The most index entries (additions and removals) one commit may derive. */
  static final int MAX_ENTRIES = 1_000_000;

  /** The most encoded index key and value bytes one commit may stage. */
  static final long MAX_BYTES = 64L * 1024 * 1024;

  /** One derived entry: the row, its index, its values (as given) and its encoded key. */
  private record Entry(
      long tableId, IndexInfo index, List<Object> values, long rowId, IndexEntryKey key) {
    boolean uniqueShape() {
      return key instanceof IndexEntryKey.Unique;
    }
  }

  private final VerbState s;
  private final List<Entry> removals = new ArrayList<>();
  private final List<Entry> additions = new ArrayList<>();
  private long bytes;

  IndexUpkeep(VerbState state) {
    this.s = state;
  }

  /** Whether the run derived no entry. */
  public boolean isEmpty() {
    return removals.isEmpty() && additions.isEmpty();
  }

  /** A row a verb adds: its top-level cells, checked, as the inline verbs take them, and its id. */
  record Row(List<Object> values, long rowId) {}

  /**
   * Derives the entries of rows the run adds, whose cells are in the order of {@code columns}.
   * Stages nothing.
   *
   * @throws InvalidArgumentException if a value cannot be an index value (too long, or of a type no
   *     index takes), or the commit's entries pass a limit
   */
  void add(long tableId, List<IndexInfo> indexes, List<ColumnValue> columns, List<Row> rows) {
    add(tableId, indexes, columns, rows, new Derived(List.of(), List.of()));
  }

  /**
   * As {@link #add}, taking {@code with} (derived by the same verb call, not yet taken) along: an
   * update of a data-file row, whose old version's entries were read from its file.
   */
  void add(
      long tableId,
      List<IndexInfo> indexes,
      List<ColumnValue> columns,
      List<Row> rows,
      Derived with) {
    List<Entry> added = new ArrayList<>(with.added);
    for (Row row : rows) {
      added.addAll(additionsOf(tableId, indexes, columns, row));
    }
    accept(with.removed, added);
  }

  /**
   * Derives the entries a stored inlined row the run deletes gives up: the values the row was
   * indexed under, read from its chunk ({@code all}: the table's live columns). Stages nothing.
   *
   * @throws dev.moraine.core.catalog.IndexedTableException if the row's chunk does not hold an
   *     indexed column (it was added after the row was written) whose initial default is not NULL:
   *     the value its entry was made from is not read here
   */
  void remove(
      long tableId,
      List<IndexInfo> indexes,
      List<ColumnValue> all,
      InlinedRows.Row stored,
      String verb) {
    accept(removalsOf(tableId, indexes, all, stored, verb), List.of());
  }

  /**
   * Derives an update's entries: those the stored version gives up, and those the new version,
   * whose cells are in the order of {@code columns}, takes under the same row id. Stages nothing.
   *
   * @throws InvalidArgumentException as {@link #add}
   * @throws dev.moraine.core.catalog.IndexedTableException as {@link #remove}
   */
  void replace(
      long tableId,
      List<IndexInfo> indexes,
      List<ColumnValue> all,
      InlinedRows.Row stored,
      List<ColumnValue> columns,
      List<Object> values,
      String verb) {
    accept(
        removalsOf(tableId, indexes, all, stored, verb),
        additionsOf(tableId, indexes, columns, new Row(values, stored.rowId())));
  }

  private static List<Entry> additionsOf(
      long tableId, List<IndexInfo> indexes, List<ColumnValue> columns, Row row) {
    List<Entry> derived = new ArrayList<>(indexes.size());
    for (IndexInfo index : indexes) {
      List<Object> cells = new ArrayList<>(index.columnIds().size());
      List<String> types = new ArrayList<>(index.columnIds().size());
      for (long columnId : index.columnIds()) {
        int at = position(columns, columnId);
        cells.add(row.values().get(at));
        types.add(columns.get(at).getColumnType());
      }
      derived.add(derive(tableId, index, cells, types, row.rowId()));
    }
    return derived;
  }

  /**
   * The entries {@code stored} was indexed under. Each indexed column's cell is found as the crate
   * finds it in a chunk: by the field's {@code PARQUET:field_id}, or, in a chunk whose fields carry
   * none (the crate writes them so), by the column's name; its value is read in the form of the
   * field's Arrow type ({@link ArrowIndexValues}), which is the form its entry was made from.
   */
  private List<Entry> removalsOf(
      long tableId,
      List<IndexInfo> indexes,
      List<ColumnValue> all,
      InlinedRows.Row stored,
      String verb) {
    List<Entry> derived = new ArrayList<>(indexes.size());
    for (IndexInfo index : indexes) {
      List<Object> values = new ArrayList<>(index.columnIds().size());
      List<IndexKeyValue> keyValues = new ArrayList<>(index.columnIds().size());
      for (long columnId : index.columnIds()) {
        ColumnValue column = all.get(position(all, columnId));
        int field = storedField(stored, column);
        if (field < 0) {
          // The column was added after the row was written: its entry was made from the
          // column's initial default, which is not read here unless it is NULL.
          if (column.hasInitialDefault() && !"NULL".equalsIgnoreCase(column.getInitialDefault())) {
            throw IndexGuard.refusal(s, tableId, verb, List.of(index));
          }
          values.add(null);
          keyValues.add(null);
          continue;
        }
        Object raw = stored.values().get(field);
        values.add(raw);
        keyValues.add(ArrowIndexValues.of(stored.fields().get(field), raw));
      }
      derived.add(entry(tableId, index, values, keyValues, stored.rowId()));
    }
    return derived;
  }

  private static Entry derive(
      long tableId, IndexInfo index, List<Object> values, List<String> types, long rowId) {
    List<IndexKeyValue> keyValues = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      keyValues.add(InlinedIndexValues.of(types.get(i), values.get(i)));
    }
    return entry(tableId, index, values, keyValues, rowId);
  }

  /** The entry of row {@code rowId} in {@code index} under {@code keyValues}. */
  private static Entry entry(
      long tableId,
      IndexInfo index,
      List<Object> values,
      List<IndexKeyValue> keyValues,
      long rowId) {
    IndexKeyEncoder.CanonicalKey canonical = IndexKeyEncoder.canonical(index, keyValues);
    return new Entry(
        tableId, index, values, rowId, IndexKeyEncoder.entryKey(index, canonical, rowId));
  }

  /**
   * Takes the entries one verb call derived, all or none: a verb that throws stages nothing, also
   * when its closure catches the throw and goes on.
   */
  private void accept(List<Entry> removed, List<Entry> added) {
    Derived derived = new Derived(removed, added);
    check(derived);
    take(derived);
  }

  /**
   * Entries one verb call derived and has not handed over yet: a verb that must check more before
   * it stages derives them, {@link #check}s them, and {@link #take}s them once it stages.
   */
  static final class Derived {
    private final List<Entry> removed;
    private final List<Entry> added;
    private long bytes = -1;

    private Derived(List<Entry> removed, List<Entry> added) {
      this.removed = removed;
      this.added = added;
    }
  }

  /** {@code a} and {@code b} as one, to be checked and taken together. */
  static Derived both(Derived a, Derived b) {
    List<Entry> removed = new ArrayList<>(a.removed);
    removed.addAll(b.removed);
    List<Entry> added = new ArrayList<>(a.added);
    added.addAll(b.added);
    return new Derived(removed, added);
  }

  /**
   * Derives the entries stored inlined rows give up, as {@link #remove} does for one; takes
   * nothing.
   *
   * @throws dev.moraine.core.catalog.IndexedTableException as {@link #remove}
   */
  Derived removalsOfRows(
      long tableId,
      List<IndexInfo> indexes,
      List<ColumnValue> all,
      List<InlinedRows.Row> stored,
      String verb) {
    List<Entry> removed = new ArrayList<>();
    for (InlinedRows.Row row : stored) {
      removed.addAll(removalsOf(tableId, indexes, all, row, verb));
    }
    return new Derived(removed, List.of());
  }

  /**
   * Derives the entries stored inlined rows take in {@code indexes}, from their chunks as {@link
   * #remove} reads them: the backfill of a new index. Takes nothing.
   */
  Derived additionsOfRows(
      long tableId,
      List<IndexInfo> indexes,
      List<ColumnValue> all,
      List<InlinedRows.Row> stored,
      String verb) {
    Derived read = removalsOfRows(tableId, indexes, all, stored, verb);
    return new Derived(List.of(), read.removed);
  }

  /**
   * Refuses {@code derived} if taking it would pass the commit's limits; takes nothing.
   *
   * @throws InvalidArgumentException if the commit's entries would pass a limit
   */
  void check(Derived derived) {
    long count =
        (long) removals.size() + additions.size() + derived.removed.size() + derived.added.size();
    if (count > MAX_ENTRIES) {
      throw new InvalidArgumentException(
          "the commit derives "
              + count
              + " equality-index entries, above the "
              + MAX_ENTRIES
              + " one commit may write; split the work into smaller commits");
    }
    long more = 0;
    for (Entry e : derived.removed) {
      more += KeyCodec.encode(e.key()).length;
    }
    for (Entry e : derived.added) {
      // A unique-shaped entry stores its row id (8 bytes); a non-unique one stores nothing.
      more += KeyCodec.encode(e.key()).length + (e.uniqueShape() ? 8 : 0);
    }
    if (bytes + more > MAX_BYTES) {
      throw new InvalidArgumentException(
          "the commit's equality-index entries come to "
              + (bytes + more)
              + " encoded bytes, above the "
              + MAX_BYTES
              + " one commit may write; split the work into smaller commits");
    }
    derived.bytes = more;
  }

  /** Takes {@code derived}, which {@link #check} passed. */
  void take(Derived derived) {
    if (derived.bytes < 0) {
      throw new IllegalStateException("derived entries taken without a check");
    }
    bytes += derived.bytes;
    removals.addAll(derived.removed);
    additions.addAll(derived.added);
  }

  // ---- data-file rows ---------------------------------------------------------------------------

  /**
   * The columns whose values the entries of {@code indexes} need, each once, in the order the
   * indexes name them: what a data file's rows are read for.
   */
  static List<Long> indexedColumns(List<IndexInfo> indexes) {
    List<Long> out = new ArrayList<>();
    for (IndexInfo index : indexes) {
      for (long id : index.columnIds()) {
        if (!out.contains(id)) {
          out.add(id);
        }
      }
    }
    return out;
  }

  /**
   * Derives the entries of data-file rows, added ({@code adding}) or given up: {@code rows} hold
   * the values of {@link #indexedColumns} in that order. Takes nothing.
   *
   * @throws InvalidArgumentException if a value cannot be an index value
   */
  Derived fileRows(
      long tableId, List<IndexInfo> indexes, List<FileIndexValues.Row> rows, boolean adding) {
    List<Long> columns = indexedColumns(indexes);
    List<Entry> derived = new ArrayList<>(rows.size() * indexes.size());
    for (FileIndexValues.Row row : rows) {
      if (row.values().size() != columns.size()) {
        throw new InvalidArgumentException(
            row.values().size()
                + " index values read for a row of "
                + columns.size()
                + " indexed columns");
      }
      for (IndexInfo index : indexes) {
        List<IndexKeyValue> keyValues = new ArrayList<>(index.columnIds().size());
        List<Object> values = new ArrayList<>(index.columnIds().size());
        for (long id : index.columnIds()) {
          IndexKeyValue v = row.values().get(columns.indexOf(id));
          keyValues.add(v);
          values.add(javaValue(v));
        }
        derived.add(entry(tableId, index, values, keyValues, row.rowId()));
      }
    }
    Derived out = adding ? new Derived(List.of(), derived) : new Derived(derived, List.of());
    check(out);
    return out;
  }

  /**
   * Reads rows of data file {@code file} through the catalog's {@link FileIndexValues} (at {@code
   * positions}, or every row when null) and derives their entries, added or given up. Takes
   * nothing.
   *
   * @throws dev.moraine.core.catalog.IndexedTableException if the catalog has no {@link
   *     FileIndexValues}: the values cannot be read
   * @throws InvalidArgumentException if the rows read are not the ones asked for (another count of
   *     rows than the file's record count, or other positions), or a value cannot be an index value
   */
  Derived readFileRows(
      long tableId,
      List<IndexInfo> indexes,
      DataFileInfo file,
      long[] positions,
      boolean adding,
      String verb) {
    FileIndexValues reader =
        s.fileIndexValues.orElseThrow(() -> IndexGuard.refusal(s, tableId, verb, indexes));
    List<ColumnInfo> columns = new ArrayList<>();
    List<ColumnValue> live = s.columnRecords(tableId);
    for (long id : indexedColumns(indexes)) {
      columns.add(Records.column(live.get(position(live, id)), s.premiseRecord.getSnapshotId()));
    }
    List<FileIndexValues.Row> rows = reader.rows(s.premiseSnapshot, file, columns, positions);
    String what = "data file " + file.path();
    if (positions == null) {
      if (rows.size() != file.recordCount()) {
        throw new InvalidArgumentException(
            what
                + " holds "
                + rows.size()
                + " rows, not the "
                + file.recordCount()
                + " registered");
      }
    } else {
      boolean same = rows.size() == positions.length;
      for (int i = 0; same && i < positions.length; i++) {
        same = rows.get(i).position() == positions[i];
      }
      if (!same) {
        throw new InvalidArgumentException(
            what + " did not give the rows at the " + positions.length + " positions asked for");
      }
    }
    return fileRows(tableId, indexes, rows, adding);
  }

  /** An index value as a plain Java value, for a refusal to name. */
  private static Object javaValue(IndexKeyValue v) {
    if (v == null) {
      return null;
    }
    if (v instanceof IndexKeyValue.Signed x) {
      return x.value();
    }
    if (v instanceof IndexKeyValue.Unsigned x) {
      return x.widthBytes() == 8 ? Long.toUnsignedString(x.bits()) : (Object) x.bits();
    }
    if (v instanceof IndexKeyValue.Float32 x) {
      return x.value();
    }
    if (v instanceof IndexKeyValue.Float64 x) {
      return x.value();
    }
    if (v instanceof IndexKeyValue.Bool x) {
      return x.value();
    }
    if (v instanceof IndexKeyValue.Text x) {
      return x.value();
    }
    return ((IndexKeyValue.Bytes) v).value();
  }

  /** The position of column {@code columnId} among {@code columns}. */
  private static int position(List<ColumnValue> columns, long columnId) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).getColumnId() == columnId) {
        return i;
      }
    }
    // IndexGuard refuses an index over a column that is not a live top-level one before any
    // entry is derived; reaching here is a defect.
    throw new IllegalStateException(
        "an index names column " + Long.toUnsignedString(columnId) + ", which is not live");
  }

  /**
   * The position of {@code column}'s field in a stored row, or -1: the field whose {@code
   * PARQUET:field_id} is the column's id, or in a row whose fields carry no ids, the field of the
   * column's name (ASCII case-insensitively, as DuckDB names match).
   */
  private static int storedField(InlinedRows.Row row, ColumnValue column) {
    boolean identified = false;
    for (int i = 0; i < row.fields().size(); i++) {
      String id = row.fields().get(i).getMetadata().get("PARQUET:field_id");
      if (id != null) {
        identified = true;
        if (Long.parseUnsignedLong(id) == column.getColumnId()) {
          return i;
        }
      }
    }
    if (!identified) {
      for (int i = 0; i < row.fields().size(); i++) {
        if (row.fields().get(i).getName().equalsIgnoreCase(column.getColumnName())) {
          return i;
        }
      }
    }
    return -1;
  }

  /**
   * The commit's index writes, resolved against the premise as the class comment says.
   *
   * @throws DuplicateIndexValueException if an addition claims a value another row holds; nothing
   *     is returned
   */
  public WriteBatch resolve() {
    WriteBatch out = new WriteBatch();
    if (isEmpty()) {
      return out;
    }
    Map<KeyBytes, byte[]> stored = storedUniqueEntries();
    Set<KeyBytes> removedUnique = new HashSet<>();
    for (Entry r : removals) {
      byte[] key = KeyCodec.encode(r.key());
      if (r.uniqueShape()) {
        KeyBytes k = new KeyBytes(key);
        byte[] value = stored.get(k);
        if (value == null
            || IndexEntryValues.decodeUniqueRow((IndexEntryKey.Unique) r.key(), value)
                != r.rowId()) {
          continue;
        }
        removedUnique.add(k);
      }
      out.delete(key);
    }
    Map<KeyBytes, Entry> claimed = new HashMap<>();
    for (Entry a : additions) {
      byte[] key = KeyCodec.encode(a.key());
      if (!a.uniqueShape()) {
        out.put(key, IndexEntryValues.multi());
        continue;
      }
      KeyBytes k = new KeyBytes(key);
      Entry earlier = claimed.putIfAbsent(k, a);
      if (earlier != null) {
        if (earlier.rowId() != a.rowId()) {
          throw duplicate(a, earlier.rowId(), true);
        }
        continue;
      }
      byte[] value = removedUnique.contains(k) ? null : stored.get(k);
      if (value != null) {
        long holder = IndexEntryValues.decodeUniqueRow((IndexEntryKey.Unique) a.key(), value);
        if (holder != a.rowId()) {
          throw duplicate(a, holder, false);
        }
        continue;
      }
      out.put(key, IndexEntryValues.uniqueRow(a.rowId()));
    }
    return out;
  }

  /** The premise's entries under every unique-shaped key the run touches, in one read. */
  private Map<KeyBytes, byte[]> storedUniqueEntries() {
    List<byte[]> keys = new ArrayList<>();
    Set<KeyBytes> seen = new HashSet<>();
    for (List<Entry> list : List.of(removals, additions)) {
      for (Entry e : list) {
        if (e.uniqueShape()) {
          byte[] key = KeyCodec.encode(e.key());
          if (seen.add(new KeyBytes(key))) {
            keys.add(key);
          }
        }
      }
    }
    Map<KeyBytes, byte[]> out = new HashMap<>();
    if (keys.isEmpty()) {
      return out;
    }
    List<byte[]> values = s.staged.premise().loadFor(v -> v.getAll(keys));
    for (int i = 0; i < keys.size(); i++) {
      if (values.get(i) != null) {
        out.put(new KeyBytes(keys.get(i)), values.get(i));
      }
    }
    return out;
  }

  private DuplicateIndexValueException duplicate(Entry a, long holder, boolean inThisCommit) {
    TableValue table = s.requireTable(a.tableId());
    return new DuplicateIndexValueException(
        a.tableId(),
        s.requireSchema(table.getSchemaId()).getSchemaName(),
        table.getTableName(),
        a.index().indexId(),
        a.index().name(),
        a.values(),
        a.rowId(),
        holder,
        inThisCommit);
  }
}
