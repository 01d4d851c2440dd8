package dev.moraine.store.oracle;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Iterator;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Compares two dumps as JSON trees (docs/dump-format.md: objects as unordered maps, arrays in
 * order, numbers by value) and names the first place they differ.
 */
final class JsonTrees {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonTrees() {}

  static JsonNode parse(String text) throws IOException {
    return MAPPER.readTree(text);
  }

  /** Fails with the first differing path and both values there, unless the trees are equal. */
  static void assertSameTree(String expectedName, String expected, String actualName, String actual)
      throws IOException {
    Optional<String> difference = firstDifference("$", parse(expected), parse(actual));
    if (difference.isPresent()) {
      fail("the dumps differ (" + expectedName + " vs " + actualName + ") at " + difference.get());
    }
  }

  /** The first path at which {@code a} and {@code b} differ, with both values there. */
  static Optional<String> firstDifference(String path, JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return a.bigIntegerValue().equals(b.bigIntegerValue())
              && a.isIntegralNumber()
              && b.isIntegralNumber()
          ? Optional.empty()
          : Optional.of(path + ": " + shortText(a) + " vs " + shortText(b));
    }
    if (a.getNodeType() != b.getNodeType()) {
      return Optional.of(path + ": " + shortText(a) + " vs " + shortText(b));
    }
    if (a.isObject()) {
      TreeSet<String> names = new TreeSet<>();
      a.fieldNames().forEachRemaining(names::add);
      b.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        if (!a.has(name) || !b.has(name)) {
          return Optional.of(
              path
                  + "."
                  + name
                  + ": "
                  + (a.has(name) ? "present" : "absent")
                  + " vs "
                  + (b.has(name) ? "present" : "absent"));
        }
        Optional<String> inner = firstDifference(path + "." + name, a.get(name), b.get(name));
        if (inner.isPresent()) {
          return inner;
        }
      }
      return Optional.empty();
    }
    if (a.isArray()) {
      Iterator<JsonNode> x = a.elements();
      Iterator<JsonNode> y = b.elements();
      for (int i = 0; x.hasNext() || y.hasNext(); i++) {
        if (!x.hasNext() || !y.hasNext()) {
          return Optional.of(
              path
                  + ": "
                  + a.size()
                  + " elements vs "
                  + b.size()
                  + " (first extra at ["
                  + i
                  + "])");
        }
        Optional<String> inner = firstDifference(path + "[" + i + "]", x.next(), y.next());
        if (inner.isPresent()) {
          return inner;
        }
      }
      return Optional.empty();
    }
    return a.equals(b)
        ? Optional.empty()
        : Optional.of(path + ": " + shortText(a) + " vs " + shortText(b));
  }

  private static String shortText(JsonNode node) {
    String text = node.toString();
    return text.length() <= 200 ? text : text.substring(0, 200) + "...";
  }
}
