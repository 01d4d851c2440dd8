package dev.moraine.core.dump;

import java.math.BigInteger;
import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One JSON object of the dump while it is being built: a map that refuses a key given twice (each
 * table of docs/dump-format.md lists a key once). Key order is the writer's business ({@link
 * CompactJson} sorts them), not this map's. Also the conversions of stored values to JSON values.
 */
final class Obj extends AbstractMap<String, Object> {
  private final Map<String, Object> entries = new LinkedHashMap<>();

  private Obj() {}

  static Obj of() {
    return new Obj();
  }

  Obj with(String key, Object value) {
    if (entries.containsKey(key)) {
      throw new IllegalStateException("key " + key + " given twice");
    }
    entries.put(key, value);
    return this;
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    return entries.entrySet();
  }

  /** An unsigned 64-bit stored value (ids, counts, sizes) as a non-negative JSON integer. */
  static Object unsigned(long value) {
    return value >= 0 ? (Object) value : new BigInteger(Long.toUnsignedString(value));
  }

  /** An optional unsigned value: the integer, or null when absent. */
  static Object unsigned(OptionalLong value) {
    return value.isPresent() ? unsigned(value.getAsLong()) : null;
  }

  /** An optional string or boolean: the value, or null when absent. */
  static Object orNull(Optional<?> value) {
    return value.orElse(null);
  }
}
