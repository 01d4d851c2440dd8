package dev.moraine.store.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import dev.moraine.core.index.IndexKeyValue;
import java.math.BigInteger;
import java.util.HexFormat;

/** Index entry values as {@code moraine-oracle} prints them. Stateless. */
final class IndexJson {
  private IndexJson() {}

  /** An entry value as the oracle prints it, or null for a NULL. */
  static IndexKeyValue value(JsonNode v) {
    if (v.isNull()) {
      return null;
    }
    HexFormat hex = HexFormat.of();
    if (v.has("int")) {
      return new IndexKeyValue.Signed(
          new BigInteger(v.get("int").asText()).longValueExact(), v.get("width").asInt());
    }
    if (v.has("uint")) {
      return new IndexKeyValue.Unsigned(
          new BigInteger(v.get("uint").asText()).longValue(), v.get("width").asInt());
    }
    if (v.has("f32_bits")) {
      return new IndexKeyValue.Float32(
          Float.intBitsToFloat(Integer.parseUnsignedInt(v.get("f32_bits").asText(), 16)));
    }
    if (v.has("f64_bits")) {
      return new IndexKeyValue.Float64(
          Double.longBitsToDouble(Long.parseUnsignedLong(v.get("f64_bits").asText(), 16)));
    }
    if (v.has("bool")) {
      return new IndexKeyValue.Bool(v.get("bool").asBoolean());
    }
    if (v.has("text_hex")) {
      return new IndexKeyValue.Text(
          new String(
              hex.parseHex(v.get("text_hex").asText()), java.nio.charset.StandardCharsets.UTF_8));
    }
    return new IndexKeyValue.Bytes(hex.parseHex(v.get("bytes_hex").asText()));
  }
}
