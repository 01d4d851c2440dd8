package dev.moraine.core.dump;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Writes a tree of plain Java values as compact JSON, the way the dump format (docs/dump-format.md
 * §1) wants it: no whitespace, the keys of every object in ascending order of their UTF-8 bytes,
 * non-ASCII characters as themselves, and only {@code "}, {@code \} and control characters escaped.
 *
 * <p>A value is {@code null}, a {@link Boolean}, a {@link String}, a {@link Long} or {@link
 * BigInteger} (integers; there are no floating-point numbers in a dump), a {@link Map} with {@link
 * String} keys (an object; its iteration order does not matter), or an {@link Iterable} (an array,
 * iterated once, so a lazy one keeps only one element in memory at a time).
 */
public final class CompactJson {
  private CompactJson() {}

  /**
   * Appends {@code value} to {@code out}.
   *
   * @throws IllegalArgumentException if the tree holds a value of another type (a defect of the
   *     caller); what was appended before it stays appended
   * @throws UncheckedIOException if {@code out} fails
   */
  static void write(Object value, Appendable out) {
    try {
      writeValue(value, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code value} as one compact JSON text. */
  public static String toText(Object value) {
    StringBuilder text = new StringBuilder();
    write(value, text);
    return text.toString();
  }

  private static void writeValue(Object value, Appendable out) throws IOException {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Boolean b) {
      out.append(b ? "true" : "false");
    } else if (value instanceof String s) {
      writeString(s, out);
    } else if (value instanceof Long || value instanceof BigInteger) {
      out.append(value.toString());
    } else if (value instanceof Map<?, ?> map) {
      writeObject(map, out);
    } else if (value instanceof Iterable<?> items) {
      out.append('[');
      boolean first = true;
      for (Object item : items) {
        if (!first) {
          out.append(',');
        }
        first = false;
        writeValue(item, out);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException(
          "no JSON form for a value of type " + value.getClass().getName());
    }
  }

  private static void writeObject(Map<?, ?> map, Appendable out) throws IOException {
    List<Map.Entry<byte[], Object>> entries = new ArrayList<>(map.size());
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getKey() instanceof String name)) {
        throw new IllegalArgumentException("an object key must be a string, got " + e.getKey());
      }
      entries.add(Map.entry(name.getBytes(StandardCharsets.UTF_8), valueOrNull(e.getValue())));
    }
    // Byte order of the UTF-8 names, which is also code point order (docs/dump-format.md §1).
    entries.sort((a, b) -> Arrays.compareUnsigned(a.getKey(), b.getKey()));
    out.append('{');
    boolean first = true;
    for (Map.Entry<byte[], Object> e : entries) {
      if (!first) {
        out.append(',');
      }
      first = false;
      writeString(new String(e.getKey(), StandardCharsets.UTF_8), out);
      out.append(':');
      writeValue(unwrapNull(e.getValue()), out);
    }
    out.append('}');
  }

  /** Map.entry refuses null values; a marker stands in for them while sorting. */
  private static final Object NULL = new Object();

  private static Object valueOrNull(Object value) {
    return value == null ? NULL : value;
  }

  private static Object unwrapNull(Object value) {
    return value == NULL ? null : value;
  }

  private static void writeString(String s, Appendable out) throws IOException {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append("\\u00")
                .append(Character.forDigit(c >> 4, 16))
                .append(Character.forDigit(c & 0xf, 16));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
