package dev.moraine.core.inline;

import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.Versioned;
import dev.moraine.core.keyspace.KeyspaceDataException;
import dev.moraine.core.keyspace.inline.InlineArrow;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.KeyPrefixes;
import dev.moraine.core.keyspace.proto.InlineChunkValue;
import dev.moraine.core.keyspace.proto.InlineSchemaValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;

/**
 * A table's inlined rows live at a snapshot (RFC 0002 §9, RFC 0003 §3.3). A chunk written at {@code
 * b} holds rows {@code row_id_start ..} in order; row {@code r} of that chunk is live at {@code s}
 * when {@code b <= s} and no tombstone of {@code r} ends in {@code (b, s]}. An UPDATE tombstones a
 * row and re-inlines the same id in a later chunk, so several chunks can cover one id; at most one
 * of them is live at a snapshot, and should two ever be, the later chunk's version wins.
 */
public final class InlineRowsReader {
  private InlineRowsReader() {}

  public static InlinedRows read(KvReadView view, long tableId, long at) {
    Map<Long, List<Long>> tombstones = tombstones(view, tableId);
    // row id -> the live version's row; chunks come in (begin, seq) order, so the later chunk's
    // version replaces an earlier one.
    TreeMap<Long, InlinedRows.Row> rows = new TreeMap<>(Long::compareUnsigned);
    eachRow(
        view,
        tableId,
        at,
        row -> {
          if (live(tombstones.get(row.rowId()), row.beginSnapshot(), at)) {
            rows.put(row.rowId(), row);
          }
        });
    return new InlinedRows(tableId, new ArrayList<>(rows.values()));
  }

  /**
   * Every inlined row version of a table written at or before {@code at}, live or deleted, by row
   * id then begin snapshot: the rows of DuckLake's {@code ducklake_inlined_data_<t>_<v>} tables
   * right after {@code at}. A version's end is the first tombstone of its row id after its begin,
   * kept only when it is at or before {@code at}.
   */
  public static List<Versioned<InlinedRows.Row>> readThrough(
      KvReadView view, long tableId, long at) {
    Map<Long, List<Long>> tombstones = tombstones(view, tableId);
    List<Versioned<InlinedRows.Row>> out = new ArrayList<>();
    eachRow(
        view,
        tableId,
        at,
        row -> {
          OptionalLong end = OptionalLong.empty();
          for (long e : tombstones.getOrDefault(row.rowId(), List.of())) {
            if (Long.compareUnsigned(e, row.beginSnapshot()) > 0
                && Long.compareUnsigned(e, at) <= 0
                && (end.isEmpty() || Long.compareUnsigned(e, end.getAsLong()) < 0)) {
              end = OptionalLong.of(e);
            }
          }
          out.add(new Versioned<>(row, end));
        });
    out.sort(
        Comparator.<Versioned<InlinedRows.Row>, Long>comparing(
                r -> r.version().rowId(), Long::compareUnsigned)
            .thenComparing(r -> r.version().beginSnapshot(), Long::compareUnsigned));
    return List.copyOf(out);
  }

  /**
   * Decodes every row of every insert chunk of {@code tableId} written at or before {@code at}, in
   * (begin snapshot, chunk seq, position) order, and hands each to {@code sink}.
   */
  private static void eachRow(
      KvReadView view, long tableId, long at, Consumer<InlinedRows.Row> sink) {
    Map<Long, Schema> schemas = new HashMap<>();
    List<KeyValue> chunks = new ArrayList<>();
    try (KvIterator it = view.scanPrefix(KeyPrefixes.inlineChunksOf(tableId))) {
      while (it.hasNext()) {
        chunks.add(it.next());
      }
    }
    chunks.sort(
        (a, b) -> {
          InlineOp.InsertChunk x = op(a), y = op(b);
          int c = Long.compareUnsigned(x.beginSnapshot(), y.beginSnapshot());
          return c != 0 ? c : Long.compareUnsigned(x.chunkSeq(), y.chunkSeq());
        });
    try (BufferAllocator allocator = new RootAllocator()) {
      for (KeyValue kv : chunks) {
        InlineOp.InsertChunk chunk = op(kv);
        if (Long.compareUnsigned(chunk.beginSnapshot(), at) > 0) {
          continue;
        }
        Schema schema =
            schemas.computeIfAbsent(
                chunk.schemaVersion(),
                v -> schema(view, tableId, v, KeyCodec.decode(kv.key()).printable()));
        decodeChunk(kv, chunk, schema, allocator, sink);
      }
    }
  }

  /**
   * The row {@code rowId} of the insert chunk {@code chunk} of {@code tableId}, decoded from the
   * chunk alone (without the table's column types).
   *
   * @throws KeyspaceDataException if the chunk is missing, does not hold the row, or is damaged
   */
  public static InlinedRows.Row row(
      KvReadView view, long tableId, InlineOp.InsertChunk chunk, long rowId) {
    Key key = InlineKey.Record.live(chunk);
    byte[] value = view.get(KeyCodec.encode(key));
    if (value == null) {
      throw new KeyspaceDataException(key.printable(), "the chunk is missing");
    }
    Schema schema = schema(view, tableId, chunk.schemaVersion(), key.printable());
    List<InlinedRows.Row> found = new ArrayList<>(1);
    try (BufferAllocator allocator = new RootAllocator()) {
      decodeChunk(
          new KeyValue(KeyCodec.encode(key), value),
          chunk,
          schema,
          allocator,
          r -> {
            if (r.rowId() == rowId) {
              found.add(r);
            }
          });
    }
    if (found.isEmpty()) {
      throw new KeyspaceDataException(
          key.printable(), "the chunk does not hold row " + Long.toUnsignedString(rowId));
    }
    return found.get(0);
  }

  /** Decodes every row of one insert chunk under {@code schema} and hands each to {@code sink}. */
  private static void decodeChunk(
      KeyValue kv,
      InlineOp.InsertChunk chunk,
      Schema schema,
      BufferAllocator allocator,
      Consumer<InlinedRows.Row> sink) {
    Key key = KeyCodec.decode(kv.key());
    InlineChunkValue value = ValueCodec.decode(key, kv.value(), InlineChunkValue.class);
    try (VectorSchemaRoot root =
        InlineArrow.decodeChunk(
            key, schema, value.getBody().toByteArray(), value.getRowCount(), allocator)) {
      List<String> names = schema.getFields().stream().map(Field::getName).toList();
      for (int k = 0; k < root.getRowCount(); k++) {
        List<Object> cells = new ArrayList<>(names.size());
        for (FieldVector vector : root.getFieldVectors()) {
          cells.add(cell(vector, k));
        }
        sink.accept(
            new InlinedRows.Row(
                value.getRowIdStart() + k,
                chunk.schemaVersion(),
                chunk.beginSnapshot(),
                names,
                schema.getFields(),
                cells));
      }
    }
  }

  private static InlineOp.InsertChunk op(KeyValue kv) {
    Key key = KeyCodec.decode(kv.key());
    if (key instanceof InlineKey.Record r && r.op() instanceof InlineOp.InsertChunk c) {
      return c;
    }
    throw new KeyspaceDataException(key.printable(), "not an insert chunk under the chunk prefix");
  }

  private static boolean live(List<Long> ends, long begin, long at) {
    if (ends == null) {
      return true;
    }
    for (long end : ends) {
      if (Long.compareUnsigned(end, begin) > 0 && Long.compareUnsigned(end, at) <= 0) {
        return false;
      }
    }
    return true;
  }

  private static Map<Long, List<Long>> tombstones(KvReadView view, long tableId) {
    Map<Long, List<Long>> ends = new HashMap<>();
    try (KvIterator it = view.scanPrefix(KeyPrefixes.rowTombstonesOf(tableId))) {
      while (it.hasNext()) {
        KeyValue kv = it.next();
        Key key = KeyCodec.decode(kv.key());
        ValueCodec.decode(key, kv.value()); // checks the value repeats the key's end
        InlineKey.RowTombstone t = (InlineKey.RowTombstone) key;
        ends.computeIfAbsent(t.rowId(), r -> new ArrayList<>()).add(t.endSnapshot());
      }
    }
    return ends;
  }

  /**
   * The column names of one (table, schema version)'s inlined rows, from its Arrow schema record.
   */
  public static List<String> columnNames(KvReadView view, long tableId, long version) {
    return fields(view, tableId, version).stream().map(Field::getName).toList();
  }

  /**
   * The Arrow fields of one (table, schema version)'s columns, as its schema record holds them
   * (following one reference hop).
   */
  public static List<Field> fields(KvReadView view, long tableId, long version) {
    String key = new InlineKey.Schema(tableId, version).printable();
    return schema(view, tableId, version, key).getFields();
  }

  /** The Arrow schema of one (table, schema version), following one reference hop (format 7). */
  /**
   * The cell of row {@code k} as Arrow Java hands it out, with text as a {@code String}; a struct
   * as a map from member name to such a cell, every member present in field order (Arrow Java's own
   * map leaves out a null member).
   */
  private static Object cell(ValueVector vector, int k) {
    if (vector instanceof MapVector map) {
      if (map.isNull(k)) {
        return null;
      }
      StructVector entries = (StructVector) map.getDataVector();
      Map<Object, Object> out = new LinkedHashMap<>();
      for (int i = map.getElementStartIndex(k); i < map.getElementEndIndex(k); i++) {
        out.put(cell(entries.getChild("key"), i), cell(entries.getChild("value"), i));
      }
      return Collections.unmodifiableMap(out);
    }
    if (vector instanceof ListVector list) {
      if (list.isNull(k)) {
        return null;
      }
      int start = list.getElementStartIndex(k);
      int end = list.getElementEndIndex(k);
      List<Object> elements = new ArrayList<>(end - start);
      for (int i = start; i < end; i++) {
        elements.add(cell(list.getDataVector(), i));
      }
      return Collections.unmodifiableList(elements);
    }
    if (vector instanceof StructVector struct) {
      if (struct.isNull(k)) {
        return null;
      }
      Map<String, Object> members = new LinkedHashMap<>();
      for (FieldVector child : struct.getChildrenFromFields()) {
        members.put(child.getName(), cell(child, k));
      }
      return Collections.unmodifiableMap(members);
    }
    Object cell = vector.getObject(k);
    return cell instanceof Text t ? t.toString() : cell;
  }

  private static Schema schema(KvReadView view, long tableId, long version, String chunkKey) {
    InlineSchemaValue value = schemaRecord(view, tableId, version, chunkKey);
    if (value.hasSameAsVersion()) {
      long target = value.getSameAsVersion();
      value = schemaRecord(view, tableId, target, chunkKey);
      if (value.hasSameAsVersion()) {
        throw new KeyspaceDataException(
            new InlineKey.Schema(tableId, version).printable(),
            "schema reference points at another reference (version "
                + Long.toUnsignedString(target)
                + ")");
      }
      return InlineArrow.decodeSchema(
          new InlineKey.Schema(tableId, target), value.getArrowSchema().toByteArray());
    }
    return InlineArrow.decodeSchema(
        new InlineKey.Schema(tableId, version), value.getArrowSchema().toByteArray());
  }

  private static InlineSchemaValue schemaRecord(
      KvReadView view, long tableId, long version, String chunkKey) {
    Key key = new InlineKey.Schema(tableId, version);
    byte[] bytes = view.get(KeyCodec.encode(key));
    if (bytes == null) {
      throw new KeyspaceDataException(
          chunkKey, "no schema record for its schema version " + Long.toUnsignedString(version));
    }
    return ValueCodec.decode(key, bytes, InlineSchemaValue.class);
  }
}
