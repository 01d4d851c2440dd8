package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import dev.moraine.core.dump.UnrenderableValueException;
import dev.moraine.core.keyspace.inline.InlineArrow;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.proto.InlineChunkValue;
import dev.moraine.core.keyspace.proto.InlineSchemaValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inlined values of every Arrow type the dump format renders (docs/dump-format.md §6.3), nulls, and
 * a type it does not render, read by both sides from a chunk added raw to a copy of the Rust lake:
 * unsigned integers at their maxima, signed minima, a large UTF-8 string outside the BMP, a null in
 * a floating-point column (null, not a failure) and a floating-point value (a failure on both
 * sides).
 */
class RustInlinedValuesTest {
  /** A schema version and chunk sequence no commit of the workload reaches. */
  private static final long SCHEMA_VERSION = 1000;

  private static final long CHUNK_SEQ = 9000;
  private static final long FIRST_ROW = 1_000_000;

  /** Located once: a missing binary fails every test of the class (RustOracle.locate). */
  private static RustOracle oracle;

  @TempDir static Path temp;

  private static Path rustLake;
  private static long head;
  private static long tableId;

  @BeforeAll
  static void writeTheRustLake() throws Exception {
    oracle = RustOracle.locate();
    rustLake = temp.resolve("rust-lake");
    oracle.write(rustLake);
    JsonNode last = Lakes.lastOf(JsonTrees.parse(oracle.dump(rustLake)).get("snapshots"));
    head = last.get("record").get("snapshot_id").asLong();
    tableId = -1;
    for (JsonNode table : last.get("tables")) {
      if (table.get("name").asText().equals("events")) {
        tableId = table.get("id").asLong();
      }
    }
    assertTrue(tableId >= 0, "the workload's inline table `events` is live at the head");
  }

  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("u8", new ArrowType.Int(8, false)),
              Field.nullable("u16", new ArrowType.Int(16, false)),
              Field.nullable("u32", new ArrowType.Int(32, false)),
              Field.nullable("u64", new ArrowType.Int(64, false)),
              Field.nullable("i8", new ArrowType.Int(8, true)),
              Field.nullable("i16", new ArrowType.Int(16, true)),
              Field.nullable("big", ArrowType.LargeUtf8.INSTANCE),
              Field.nullable("maybe", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));

  @Test
  void everyRenderedTypeAndNulls_areReadTheSame() throws Exception {
    Path lake = temp.resolve("with-values");
    Lakes.copyTree(rustLake, lake);
    addChunk(
        lake,
        root -> {
          ((UInt1Vector) root.getVector("u8")).setSafe(0, 255);
          ((UInt2Vector) root.getVector("u16")).setSafe(0, 65535);
          ((UInt4Vector) root.getVector("u32")).setSafe(0, -1);
          ((UInt8Vector) root.getVector("u64")).setSafe(0, -1L);
          ((TinyIntVector) root.getVector("i8")).setSafe(0, Byte.MIN_VALUE);
          ((SmallIntVector) root.getVector("i16")).setSafe(0, Short.MIN_VALUE);
          ((LargeVarCharVector) root.getVector("big"))
              .setSafe(0, "\uFF21\uD83D\uDE00".getBytes(StandardCharsets.UTF_8));
          ((Float8Vector) root.getVector("maybe")).setNull(0);
          for (FieldVector v : root.getFieldVectors()) {
            v.setNull(1);
          }
        });
    String rust = oracle.dump(lake);
    String java = Lakes.javaDump(lake, null);
    JsonTrees.assertSameTree("moraine-oracle dump", rust, "CatalogDump", java);
    String rows = inlinedRowsAtHead(java).toString();
    assertTrue(
        rows.contains(
            "[255,65535,4294967295,18446744073709551615,-128,-32768,\"\uFF21\uD83D\uDE00\",null]"),
        rows);
    assertTrue(rows.contains("[null,null,null,null,null,null,null,null]"), rows);
  }

  @Test
  void aFloatingPointValue_failsBothDumps() throws Exception {
    Path lake = temp.resolve("with-a-float");
    Lakes.copyTree(rustLake, lake);
    addChunk(
        lake,
        root -> {
          for (FieldVector v : root.getFieldVectors()) {
            v.setNull(0);
            v.setNull(1);
          }
          ((Float8Vector) root.getVector("maybe")).setSafe(1, 1.5);
        });
    RustOracle.Failure rust = assertThrows(RustOracle.Failure.class, () -> oracle.dump(lake));
    assertEquals(1, rust.exitStatus(), rust.stderr());
    assertTrue(rust.stderr().contains("does not render"), rust.stderr());
    UnrenderableValueException java =
        assertThrows(UnrenderableValueException.class, () -> Lakes.javaDump(lake, null));
    String message = java.getMessage();
    assertTrue(message.contains("table events"), message);
    assertTrue(message.contains("inlined row " + (FIRST_ROW + 1)), message);
    assertTrue(message.contains("FloatingPoint(DOUBLE)"), message);
  }

  private static JsonNode inlinedRowsAtHead(String dump) throws Exception {
    for (JsonNode table : Lakes.lastOf(JsonTrees.parse(dump).get("snapshots")).get("tables")) {
      if (table.get("id").asLong() == tableId) {
        return table.get("inlined_rows");
      }
    }
    throw new AssertionError("table " + tableId + " is not in the dump");
  }

  /**
   * Adds, in one batch, the inline schema of {@link #SCHEMA_VERSION} and one two-row chunk of it
   * that begins at the head, with rows {@link #FIRST_ROW} and the next, filled by {@code fill}.
   */
  private static void addChunk(Path lake, Consumer<VectorSchemaRoot> fill) {
    byte[] body;
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
      root.allocateNew();
      fill.accept(root);
      root.setRowCount(2);
      body = InlineArrow.encodeChunk(root);
    }
    InlineKey.Schema schemaKey = new InlineKey.Schema(tableId, SCHEMA_VERSION);
    InlineKey.Record chunkKey =
        InlineKey.Record.live(new InlineOp.InsertChunk(tableId, SCHEMA_VERSION, head, CHUNK_SEQ));
    InlineSchemaValue schema =
        InlineSchemaValue.newBuilder()
            .setArrowSchema(ByteString.copyFrom(InlineArrow.encodeSchema(SCHEMA)))
            .build();
    InlineChunkValue chunk =
        InlineChunkValue.newBuilder()
            .setBody(ByteString.copyFrom(body))
            .setRowIdStart(FIRST_ROW)
            .setRowCount(2)
            .build();
    try (KvStore kv = Lakes.provider(lake).openWriter()) {
      WriteReceipt receipt =
          kv.write(
              new WriteBatch()
                  .put(KeyCodec.encode(schemaKey), ValueCodec.encode(schemaKey, schema))
                  .put(KeyCodec.encode(chunkKey), ValueCodec.encode(chunkKey, chunk)));
      kv.flushWal();
      kv.awaitDurable(receipt);
    }
  }
}
