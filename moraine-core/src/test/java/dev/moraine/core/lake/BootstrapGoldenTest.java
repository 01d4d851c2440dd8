package dev.moraine.core.lake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.kv.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The bootstrap batch against RFC 0002 §13.1, byte for byte: the RFC's placeholders for the time
 * (1764460800000000) and the schema UUID, and this library's {@code writer_version} (§16, deviation
 * 4) in place of the crate's "0.7.0".
 */
class BootstrapGoldenTest {
  private static final long TIME = 1764460800000000L;
  private static final String UUID = "00000000-0000-4000-8000-000000000000";

  @Test
  void theBatchOfSection13_1() {
    WriteBatch batch = Bootstrap.batch(CatalogOptions.defaults(), TIME, UUID);
    byte[] writer = Bootstrap.WRITER_VERSION.getBytes(StandardCharsets.UTF_8);
    String uuidHex = HexFormat.of().formatHex(UUID.getBytes(StandardCharsets.US_ASCII));
    List<String[]> expected =
        List.of(
            new String[] {
              "0202",
              "4d524e4500"
                  + "0809"
                  + "12"
                  + String.format("%02x", writer.length)
                  + HexFormat.of().formatHex(writer)
            },
            new String[] {
              "030000000000000000",
              "4d524e4500"
                  + "108080d1d9c8989103"
                  + "2001"
                  + "3a15637265617465645f736368656d613a226d61696e22"
            },
            new String[] {
              "0402020000000000000000",
              "4d524e4500" + "1224" + uuidHex + "2a046d61696e" + "32056d61696e2f" + "3801"
            },
            new String[] {
              "04020d00000000000000000000000000000000",
              "4d524e4500" + "0a120a09656e63727970746564120566616c7365"
            },
            new String[] {"0203", "4d524e4500"});
    assertEquals(expected.size(), batch.size());
    for (int i = 0; i < expected.size(); i++) {
      WriteBatch.Op op = batch.ops().get(i);
      assertEquals(expected.get(i)[0], HexFormat.of().formatHex(op.key()), "key " + i);
      assertEquals(expected.get(i)[1], HexFormat.of().formatHex(op.value()), "value " + i);
    }
  }

  @Test
  void dataPathAndEncryptionGoIntoTheGlobalOptions() {
    WriteBatch batch =
        Bootstrap.batch(new CatalogOptions(Optional.of("s3://b/l/"), true, 1), TIME, UUID);
    var options =
        dev.moraine.core.keyspace.value.ValueCodec.decode(
            dev.moraine.core.keyspace.key.CurrentKey.of(
                dev.moraine.core.keyspace.key.EntityKey.OptionScope.global()),
            batch.ops().get(3).value(),
            dev.moraine.core.keyspace.proto.OptionScopeValue.class);
    assertEquals(
        java.util.Map.of("encrypted", "true", "data_path", "s3://b/l/"), options.getOptionsMap());
  }
}
