package dev.moraine.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.keyspace.value.ValueFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random values of every message kind survive encode then decode unchanged. Each try takes a golden
 * record (which fixes the key and the message type), fills a message of that type with random
 * content, and copies over from the golden record the fields the key constrains.
 */
class ValueCodecPropertiesTest {
  /** Fields a key constrains (ids it repeats, history ends, locator identity, schema/reference). */
  private static final Set<String> KEY_BOUND =
      Set.of(
          "schema_id",
          "table_id",
          "view_id",
          "column_id",
          "partition_id",
          "data_file_id",
          "delete_file_id",
          "object_id",
          "sort_id",
          "macro_id",
          "mapping_id",
          "index_id",
          "end_snapshot",
          "snapshot_id",
          "schema_version",
          "begin_snapshot",
          "chunk_seq",
          "row_id_start",
          "arrow_schema",
          "same_as_version");

  private static final List<GoldenRecords.Sample> SAMPLES =
      new ArrayList<>(GoldenRecords.all().values());

  @Provide
  Arbitrary<Integer> sampleIndex() {
    return Arbitraries.integers().between(0, SAMPLES.size() - 1);
  }

  @Property(tries = 1500)
  void decode_inverts_encode_for_every_kind(@ForAll("sampleIndex") int which, @ForAll long seed) {
    GoldenRecords.Sample sample = SAMPLES.get(which);
    Random random = new Random(seed);
    Message.Builder b = fill(sample.value().newBuilderForType(), random, 0);
    for (FieldDescriptor f : sample.value().getDescriptorForType().getFields()) {
      if (KEY_BOUND.contains(f.getName())) {
        b.clearField(f);
        if (f.isRepeated() || sample.value().hasField(f)) {
          b.setField(f, sample.value().getField(f));
        }
      }
    }
    Message value = b.build();
    byte[] bytes = ValueCodec.encode(sample.key(), value);
    assertArrayEquals(ValueFrame.frame(value), bytes);
    Message back = ValueCodec.decode(sample.key(), bytes);
    assertEquals(value, back);
    // protobuf-java's own reading of the payload agrees (maps compare as maps).
    assertEquals(DynamicMessage.newBuilder(value).build(), DynamicMessage.newBuilder(back).build());
  }

  private static Message.Builder fill(Message.Builder b, Random r, int depth) {
    Descriptor d = b.getDescriptorForType();
    for (FieldDescriptor f : d.getFields()) {
      if (r.nextInt(3) == 0) {
        continue;
      }
      if (f.isMapField()) {
        for (int i = r.nextInt(4); i > 0; i--) {
          Message.Builder entry = b.newBuilderForField(f);
          Descriptor ed = f.getMessageType();
          entry.setField(ed.findFieldByNumber(1), text(r));
          entry.setField(ed.findFieldByNumber(2), text(r));
          b.addRepeatedField(f, entry.build());
        }
      } else if (f.isRepeated()) {
        for (int i = r.nextInt(4); i > 0; i--) {
          Object v = value(b, f, r, depth);
          if (v != null) {
            b.addRepeatedField(f, v);
          }
        }
      } else {
        Object v = value(b, f, r, depth);
        if (v != null) {
          b.setField(f, v);
        }
      }
    }
    return b;
  }

  private static Object value(Message.Builder b, FieldDescriptor f, Random r, int depth) {
    return switch (f.getJavaType()) {
      case LONG -> r.nextInt(4) == 0 ? (long) r.nextInt(3) : r.nextLong();
      case BOOLEAN -> r.nextBoolean();
      case STRING -> text(r);
      case BYTE_STRING -> {
        byte[] x = new byte[r.nextInt(12)];
        r.nextBytes(x);
        yield ByteString.copyFrom(x);
      }
      case MESSAGE -> depth > 2 ? null : fill(b.newBuilderForField(f), r, depth + 1).build();
      default -> throw new AssertionError("the format uses no " + f.getJavaType() + " field");
    };
  }

  /** Any valid Unicode, including characters above U+FFFF; never an unpaired surrogate. */
  private static String text(Random r) {
    StringBuilder s = new StringBuilder();
    for (int i = r.nextInt(6); i > 0; i--) {
      int cp;
      do {
        cp =
            switch (r.nextInt(3)) {
              case 0 -> r.nextInt(0x80);
              case 1 -> r.nextInt(0x10000);
              default -> 0x10000 + r.nextInt(0x100000);
            };
      } while (cp >= 0xd800 && cp <= 0xdfff);
      s.appendCodePoint(cp);
    }
    return s.toString();
  }
}
