package dev.moraine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.moraine.core.index.IndexKeyValue;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Running {@code moraine-oracle} ({@link OracleBinary}) and reading what it prints. */
final class CrateOracle {
  private CrateOracle() {}

  /**
   * Runs the oracle with {@code args}, its output kept under {@code scratch}, and returns what it
   * printed; fails the test if it fails.
   */
  static String run(Path scratch, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(OracleBinary.path().toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(scratch, "oracle", ".out");
    Path err = Files.createTempFile(scratch, "oracle", ".err");
    Process oracle =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertTrue(oracle.waitFor(2, TimeUnit.MINUTES), "moraine-oracle did not finish");
    assertEquals(0, oracle.exitValue(), args[0] + ": " + Files.readString(err));
    return Files.readString(out);
  }

  /** {@link #run}, its output parsed as JSON. */
  static JsonNode json(Path scratch, String... args) throws Exception {
    return new ObjectMapper().readTree(run(scratch, args));
  }

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
          new String(hex.parseHex(v.get("text_hex").asText()), StandardCharsets.UTF_8));
    }
    return new IndexKeyValue.Bytes(hex.parseHex(v.get("bytes_hex").asText()));
  }
}
