package dev.moraine.core.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** The dump's JSON writer: compact, keys by UTF-8 bytes, strings as they are, integers only. */
class CompactJsonTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void objectsAreCompact_withKeysInByteOrder() {
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("b", 1L);
    object.put("a", List.of(true, false));
    object.put("\uD83D\uDE00", null); // U+1F600: after U+FF21 in UTF-8, before it in UTF-16
    object.put("\uFF21", "x");
    object.put("A", Map.of());
    assertEquals(
        "{\"A\":{},\"a\":[true,false],\"b\":1,\"\uFF21\":\"x\",\"\uD83D\uDE00\":null}",
        CompactJson.toText(object));
  }

  @Test
  void stringsEscapeOnlyQuotesBackslashesAndControls() {
    assertEquals(
        "\"q\\\" b\\\\ \\n\\r\\t\\b\\f \\u0001\\u001f \u007f é \uD83D\uDE00\"",
        CompactJson.toText("q\" b\\ \n\r\t\b\f \u0001\u001f \u007f é \uD83D\uDE00"));
  }

  @Test
  void unsignedValuesAreNonNegative() {
    assertEquals("18446744073709551615", CompactJson.toText(Obj.unsigned(-1L)));
    assertEquals("9223372036854775808", CompactJson.toText(Obj.unsigned(Long.MIN_VALUE)));
    assertEquals("7", CompactJson.toText(Obj.unsigned(7L)));
    assertEquals("-7", CompactJson.toText(-7L));
  }

  @Test
  void aValueWithoutAJsonForm_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> CompactJson.toText(List.of(1.5d)));
    assertThrows(IllegalArgumentException.class, () -> CompactJson.toText(Map.of(1, 2L)));
  }

  @Test
  void aKeyGivenTwice_isRefused() {
    assertThrows(IllegalStateException.class, () -> Obj.of().with("k", 1L).with("k", 2L));
  }

  @Property
  void anyStringReadsBackAsItself(@ForAll String s) throws Exception {
    String text = CompactJson.toText(s);
    assertEquals(s, MAPPER.readTree(text).textValue());
  }

  @Property
  void anyObjectReadsBack_withKeysInByteOrder(
      @ForAll Map<String, Long> entries, @ForAll long unsigned) throws Exception {
    Map<String, Object> object = new LinkedHashMap<>(entries);
    object.put("unsigned", Obj.unsigned(unsigned));
    JsonNode tree = MAPPER.readTree(CompactJson.toText(object));
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = tree.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    List<String> sorted = new ArrayList<>(object.keySet());
    sorted.sort(
        (a, b) ->
            Arrays.compareUnsigned(
                a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    assertEquals(sorted, names);
    for (Map.Entry<String, Object> e : object.entrySet()) {
      JsonNode value = tree.get(e.getKey());
      assertEquals(new BigInteger(e.getValue().toString()), value.bigIntegerValue(), e.getKey());
    }
  }
}
