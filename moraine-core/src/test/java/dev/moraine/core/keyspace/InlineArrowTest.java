package dev.moraine.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.keyspace.inline.InlineArrow;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.InlineOp;
import dev.moraine.core.keyspace.key.Key;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class InlineArrowTest {
  static final Schema SCHEMA =
      new Schema(
          List.of(
              new Field("a", FieldType.nullable(new ArrowType.Int(64, true)), null),
              new Field("b", FieldType.nullable(new ArrowType.Utf8()), null)));
  static final Key SCHEMA_KEY = new InlineKey.Schema(1, 0);
  static final Key CHUNK_KEY = InlineKey.Record.live(new InlineOp.InsertChunk(1, 0, 3, 0));

  private BufferAllocator allocator;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void close() {
    // Closing a root allocator that still holds memory throws: every decode must release it.
    allocator.close();
  }

  /** Rows a = [1, null, -3], b = ["x", "yz", null]. */
  static VectorSchemaRoot sample(BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    BigIntVector a = (BigIntVector) root.getVector("a");
    VarCharVector b = (VarCharVector) root.getVector("b");
    a.allocateNew(3);
    b.allocateNew(3);
    a.set(0, 1);
    a.setNull(1);
    a.set(2, -3);
    b.setSafe(0, "x".getBytes(StandardCharsets.UTF_8));
    b.setSafe(1, "yz".getBytes(StandardCharsets.UTF_8));
    b.setNull(2);
    root.setRowCount(3);
    return root;
  }

  @Test
  void a_schema_record_is_one_schema_message_then_end_of_stream() {
    byte[] stream = InlineArrow.encodeSchema(SCHEMA);
    assertArrayEquals(new byte[] {-1, -1, -1, -1}, Arrays.copyOf(stream, 4));
    int metaLength = ByteBuffer.wrap(stream, 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    assertEquals(stream.length, 8 + metaLength + 8, "schema message, then the 8-byte end marker");
    assertArrayEquals(
        new byte[] {-1, -1, -1, -1, 0, 0, 0, 0},
        Arrays.copyOfRange(stream, stream.length - 8, stream.length));
    assertEquals(SCHEMA, InlineArrow.decodeSchema(SCHEMA_KEY, stream));
  }

  @Test
  void a_chunk_body_is_a_bare_length_then_the_batch_message_then_its_buffers() {
    try (VectorSchemaRoot root = sample(allocator)) {
      byte[] body = InlineArrow.encodeChunk(root);
      int metaLength = ByteBuffer.wrap(body, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      assertTrue(metaLength > 0 && 4 + metaLength < body.length, "length " + metaLength);
      assertTrue(metaLength != -1, "no continuation marker");
      try (VectorSchemaRoot back = InlineArrow.decodeChunk(CHUNK_KEY, SCHEMA, body, 3, allocator)) {
        assertEquals(root.contentToTSVString(), back.contentToTSVString());
      }
    }
  }

  @Test
  void damaged_chunks_are_refused_and_leave_no_memory_behind() {
    try (VectorSchemaRoot root = sample(allocator)) {
      byte[] body = InlineArrow.encodeChunk(root);
      byte[][] damaged = {
        new byte[0],
        new byte[] {1, 0},
        lengthPastEnd(body),
        Arrays.copyOf(body, body.length - 1),
        Arrays.copyOf(body, body.length - 8),
        Arrays.copyOf(
            body, 4 + ByteBuffer.wrap(body, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()),
        InlineArrow.encodeSchema(SCHEMA),
      };
      for (byte[] bad : damaged) {
        KeyspaceDataException e =
            assertThrows(
                KeyspaceDataException.class,
                () -> InlineArrow.decodeChunk(CHUNK_KEY, SCHEMA, bad, 3, allocator).close(),
                "length " + bad.length);
        assertEquals(CHUNK_KEY.printable(), e.key());
      }
      KeyspaceDataException count =
          assertThrows(
              KeyspaceDataException.class,
              () -> InlineArrow.decodeChunk(CHUNK_KEY, SCHEMA, body, 4, allocator).close());
      assertTrue(count.getMessage().contains("its record states 4"), count.getMessage());
    }
    assertEquals(0, allocator.getAllocatedMemory());
  }

  /** Every single-byte change of the buffers either decodes (the same shape) or is refused. */
  @Test
  void a_changed_offset_buffer_is_refused_not_misread() {
    try (VectorSchemaRoot root = sample(allocator)) {
      byte[] body = InlineArrow.encodeChunk(root);
      int start = 4 + ByteBuffer.wrap(body, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      int refused = 0;
      for (int i = start; i < body.length; i++) {
        byte[] bad = body.clone();
        bad[i] = (byte) 0x7f;
        try (VectorSchemaRoot back =
            InlineArrow.decodeChunk(CHUNK_KEY, SCHEMA, bad, 3, allocator)) {
          assertEquals(3, back.getRowCount());
        } catch (KeyspaceDataException e) {
          refused++;
        }
      }
      // The varchar offsets cannot run past its data: some of these changes must be refused.
      assertTrue(refused > 0);
    }
    assertEquals(0, allocator.getAllocatedMemory());
  }

  @Test
  void a_schema_stream_with_anything_but_one_schema_is_refused() {
    byte[] stream = InlineArrow.encodeSchema(SCHEMA);
    byte[][] damaged = {
      new byte[0],
      Arrays.copyOf(stream, 6),
      Arrays.copyOf(stream, stream.length - 12),
      new byte[] {-1, -1, -1, -1, 0, 0, 0, 0},
      concat(Arrays.copyOf(stream, stream.length - 8), stream),
    };
    for (byte[] bad : damaged) {
      KeyspaceDataException e =
          assertThrows(
              KeyspaceDataException.class,
              () -> InlineArrow.decodeSchema(SCHEMA_KEY, bad),
              "length " + bad.length);
      assertEquals("inline/schema/1/0", e.key());
    }
    // Without the end marker the stream still holds exactly one schema: accepted.
    assertEquals(
        SCHEMA, InlineArrow.decodeSchema(SCHEMA_KEY, Arrays.copyOf(stream, stream.length - 8)));
  }

  static byte[] lengthPastEnd(byte[] body) {
    byte[] bad = body.clone();
    ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(0, body.length);
    return bad;
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  @Test
  void an_empty_batch_round_trips() {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
      root.setRowCount(0);
      byte[] body = InlineArrow.encodeChunk(root);
      try (VectorSchemaRoot back = InlineArrow.decodeChunk(CHUNK_KEY, SCHEMA, body, 0, allocator)) {
        assertEquals(0, back.getRowCount());
        assertNull(null);
      }
    }
  }

  static String rustVector(String name) throws java.io.IOException {
    try (var in = InlineArrowTest.class.getResourceAsStream("/keyspace/arrow-rs-golden.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.startsWith(name + " ")) {
          return line.substring(name.length() + 1).trim();
        }
      }
    }
    throw new AssertionError(name);
  }

  /** What the Rust side writes, we read: the schema stream and a chunk body of arrow-rs 59.3. */
  @Test
  void arrow_rs_schema_and_chunk_decode() throws Exception {
    byte[] schema = java.util.HexFormat.of().parseHex(rustVector("schema"));
    assertEquals(SCHEMA, InlineArrow.decodeSchema(SCHEMA_KEY, schema));
    byte[] body = java.util.HexFormat.of().parseHex(rustVector("chunk"));
    try (VectorSchemaRoot expected = sample(allocator);
        VectorSchemaRoot back = InlineArrow.decodeChunk(CHUNK_KEY, SCHEMA, body, 3, allocator)) {
      assertEquals(expected.contentToTSVString(), back.contentToTSVString());
    }
  }

  /**
   * Our schema stream and arrow-rs's carry the same schema in different flatbuffer layouts (RFC
   * 0002 §9.3): equal in meaning, not in bytes. Our bytes are pinned here too, so that an Arrow
   * upgrade that changes them is noticed.
   */
  @Test
  void our_schema_stream_means_what_arrow_rs_writes() throws Exception {
    byte[] ours = InlineArrow.encodeSchema(SCHEMA);
    byte[] theirs = java.util.HexFormat.of().parseHex(rustVector("schema"));
    assertEquals(
        InlineArrow.decodeSchema(SCHEMA_KEY, theirs), InlineArrow.decodeSchema(SCHEMA_KEY, ours));
    assertEquals(rustVector("java-schema"), java.util.HexFormat.of().formatHex(ours));
    try (VectorSchemaRoot root = sample(allocator)) {
      assertEquals(
          rustVector("java-chunk"),
          java.util.HexFormat.of().formatHex(InlineArrow.encodeChunk(root)));
    }
  }

  /**
   * A decimal with exactly its precision's digits decodes (Arrow Java's own full validation refuses
   * it); one digit more is refused as damage.
   */
  @Test
  void decimals_decode_upToTheirPrecision_andNoFurther() {
    Schema schema =
        new Schema(
            List.of(
                new Field("d", FieldType.nullable(new ArrowType.Decimal(3, 1, 128)), List.of())));
    for (long unscaled : new long[] {999, -999, 1000}) {
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
        DecimalVector d = (DecimalVector) root.getVector(0);
        d.allocateNew();
        d.set(0, unscaled);
        d.setNull(1);
        root.setRowCount(2);
        byte[] body = InlineArrow.encodeChunk(root);
        if (Math.abs(unscaled) < 1000) {
          try (VectorSchemaRoot back =
              InlineArrow.decodeChunk(CHUNK_KEY, schema, body, 2, allocator)) {
            assertEquals(
                java.math.BigDecimal.valueOf(unscaled, 1),
                ((DecimalVector) back.getVector(0)).getObject(0));
          }
        } else {
          KeyspaceDataException e =
              assertThrows(
                  KeyspaceDataException.class,
                  () -> InlineArrow.decodeChunk(CHUNK_KEY, schema, body, 2, allocator).close());
          assertTrue(e.getMessage().contains("more than 3 digits"), e.getMessage());
        }
      }
    }
  }

  /** A map column m of int32 to int32, as the inline encoder writes one. */
  private static final Schema MAP_SCHEMA =
      new Schema(
          List.of(
              new Field(
                  "m",
                  FieldType.nullable(new ArrowType.Map(false)),
                  List.of(
                      new Field(
                          "entries",
                          FieldType.notNullable(ArrowType.Struct.INSTANCE),
                          List.of(
                              new Field(
                                  "key", FieldType.notNullable(new ArrowType.Int(32, true)), null),
                              new Field(
                                  "value",
                                  FieldType.nullable(new ArrowType.Int(32, true)),
                                  null)))))));

  /**
   * Rows {1: 2} and {3: 4, 5: 6} with the second row's end offset set to {@code end} (3 is right).
   */
  private byte[] mapChunk(int end) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(MAP_SCHEMA, allocator)) {
      org.apache.arrow.vector.complex.MapVector m =
          (org.apache.arrow.vector.complex.MapVector) root.getVector(0);
      org.apache.arrow.vector.complex.StructVector entries =
          (org.apache.arrow.vector.complex.StructVector) m.getDataVector();
      org.apache.arrow.vector.IntVector keys =
          (org.apache.arrow.vector.IntVector) entries.getChild("key");
      org.apache.arrow.vector.IntVector values =
          (org.apache.arrow.vector.IntVector) entries.getChild("value");
      root.allocateNew();
      int[][] rows = {{1, 2}, {3, 4, 5, 6}};
      for (int r = 0; r < rows.length; r++) {
        int i = m.startNewValue(r);
        for (int k = 0; k < rows[r].length; k += 2, i++) {
          entries.setIndexDefined(i);
          keys.setSafe(i, rows[r][k]);
          values.setSafe(i, rows[r][k + 1]);
        }
        m.endValue(r, rows[r].length / 2);
      }
      m.setValueCount(2);
      root.setRowCount(2);
      m.getOffsetBuffer().setInt(2L * org.apache.arrow.vector.complex.MapVector.OFFSET_WIDTH, end);
      return InlineArrow.encodeChunk(root);
    }
  }

  @Test
  void a_map_decodes_and_its_offsets_are_checked() {
    try (VectorSchemaRoot back =
        InlineArrow.decodeChunk(CHUNK_KEY, MAP_SCHEMA, mapChunk(3), 2, allocator)) {
      assertEquals(
          "[{\"key\":1,\"value\":2}] [{\"key\":3,\"value\":4},{\"key\":5,\"value\":6}]",
          back.getVector(0).getObject(0) + " " + back.getVector(0).getObject(1));
    }
    // An offset going back is refused by the offset check.
    byte[] back = mapChunk(0);
    KeyspaceDataException e =
        assertThrows(
            KeyspaceDataException.class,
            () -> InlineArrow.decodeChunk(CHUNK_KEY, MAP_SCHEMA, back, 2, allocator).close());
    assertTrue(e.getMessage().contains("offsets out of order or range"), e.getMessage());
    assertEquals(0, allocator.getAllocatedMemory());
  }
}
