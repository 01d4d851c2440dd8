package dev.moraine.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.Message;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.keyspace.value.ValueKinds;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every value kind against bytes computed independently of protobuf-java (golden-values.txt, from
 * src/test/python/golden_values.py): encoding gives exactly those bytes, and decoding them gives
 * back the record.
 */
class GoldenValuesTest {
  private static final Map<String, GoldenRecords.Sample> RECORDS = GoldenRecords.all();

  static Map<String, String[]> vectors() throws IOException {
    Map<String, String[]> out = new LinkedHashMap<>();
    try (InputStream in =
        GoldenValuesTest.class.getResourceAsStream("/keyspace/golden-values.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.trim().split(" ");
        out.put(f[0], new String[] {f[1], f[2]});
      }
    }
    return out;
  }

  @TestFactory
  Stream<DynamicTest> each_value_encodes_and_decodes_exactly() throws IOException {
    Map<String, String[]> vectors = vectors();
    assertEquals(RECORDS.keySet(), vectors.keySet(), "the Java and the independent samples differ");
    return vectors.entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(),
                    () -> {
                      GoldenRecords.Sample sample = RECORDS.get(e.getKey());
                      byte[] keyBytes = HexFormat.of().parseHex(e.getValue()[0]);
                      byte[] valueBytes = HexFormat.of().parseHex(e.getValue()[1]);
                      assertEquals(
                          HexFormat.of().formatHex(keyBytes),
                          HexFormat.of().formatHex(sample.key().encode()),
                          "key bytes");
                      assertEquals(sample.key(), KeyCodec.decode(keyBytes));
                      assertEquals(
                          HexFormat.of().formatHex(valueBytes),
                          HexFormat.of().formatHex(ValueCodec.encode(sample.key(), sample.value())),
                          "value bytes");
                      assertEquals(sample.value(), ValueCodec.decode(sample.key(), valueBytes));
                    }));
  }

  /** Every message the format defines for a key is pinned by at least one vector. */
  @Test
  void every_value_kind_has_a_vector() {
    Set<String> pinned = new HashSet<>();
    for (GoldenRecords.Sample s : RECORDS.values()) {
      collect(s.value(), pinned);
    }
    Set<String> all = new HashSet<>();
    for (var d : dev.moraine.core.keyspace.proto.KeyspaceProto.getDescriptor().getMessageTypes()) {
      all.add(d.getName());
    }
    all.removeAll(pinned);
    assertEquals(Set.of(), all, "message kinds without a golden vector");
  }

  private static void collect(Message m, Set<String> names) {
    names.add(m.getDescriptorForType().getName());
    m.getAllFields()
        .forEach(
            (f, v) -> {
              if (f.getJavaType()
                      == com.google.protobuf.Descriptors.FieldDescriptor.JavaType.MESSAGE
                  && !f.isMapField()) {
                if (f.isRepeated()) {
                  ((java.util.List<?>) v).forEach(x -> collect((Message) x, names));
                } else {
                  collect((Message) v, names);
                }
              }
            });
  }

  /**
   * The worked examples of RFC 0002 §13 (bootstrap, create table, register a file), as given there:
   * the same bytes the draft and its source check agree on.
   */
  @Test
  void rfc_worked_examples() {
    Map<String, String> examples = new LinkedHashMap<>();
    examples.put("format", "4d 52 4e 45 00 08 09 12 05 30 2e 37 2e 30");
    examples.put(
        "snapshot_bootstrap",
        "4d 52 4e 45 00 10 80 80 d1 d9 c8 98 91 03 20 01 3a 15 63 72 65 61 74 65 64 5f 73 63 68"
            + " 65 6d 61 3a 22 6d 61 69 6e 22");
    examples.put(
        "option_global",
        "4d 52 4e 45 00 0a 12 0a 09 65 6e 63 72 79 70 74 65 64 12 05 66 61 6c 73 65");
    examples.put("head_bootstrap", "4d 52 4e 45 00");
    examples.put(
        "column_int", "4d 52 4e 45 00 08 01 10 01 20 01 28 01 32 01 61 3a 05 69 6e 74 36 34 50 01");
    examples.put(
        "changelog",
        "4d 52 4e 45 00 0a 0b 04 02 03 00 00 00 00 00 00 00 01 0a 13 04 02 05 00 00 00 00 00 00"
            + " 00 01 00 00 00 00 00 00 00 01 0a 13 04 02 05 00 00 00 00 00 00 00 01 00 00 00 00 00"
            + " 00 00 02 0a 0b 04 02 0a 00 00 00 00 00 00 00 01");
    examples.put(
        "snapshot_create_table",
        "4d 52 4e 45 00 08 01 10 c0 84 8e da c8 98 91 03 18 01 20 02 3a 18 63 72 65 61 74 65 64"
            + " 5f 74 61 62 6c 65 3a 22 6d 61 69 6e 22 2e 22 74 22 5a 01 01");
    examples.put(
        "data_file",
        "4d 52 4e 45 00 10 01 18 02 32 15 64 75 63 6b 6c 61 6b 65 2d 30 30 30 31 2e 70 61 72 71"
            + " 75 65 74 38 01 42 07 70 61 72 71 75 65 74 48 03 50 80 08 58 c8 01 60 00");
    examples.put("table_stats", "4d 52 4e 45 00 08 01 10 03 18 03 20 80 08");
    examples.put("schema_version", "4d 52 4e 45 00 08 01");
    examples.put("format_v1_seed", "4d 52 4e 45 00 08 01");
    examples.forEach(
        (name, hex) -> {
          GoldenRecords.Sample s = RECORDS.get(name);
          assertArrayEquals(
              GoldenRecords.hex(hex), ValueCodec.encode(s.key(), s.value()), name + " bytes");
        });
  }

  @Test
  void keys_pick_their_message() {
    for (GoldenRecords.Sample s : RECORDS.values()) {
      Key key = s.key();
      assertEquals(
          s.value().getDescriptorForType(),
          ValueKinds.messageFor(key).orElseThrow().getDescriptorForType(),
          key.printable());
    }
  }
}
