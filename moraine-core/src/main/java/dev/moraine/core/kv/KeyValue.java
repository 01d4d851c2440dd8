package dev.moraine.core.kv;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * One entry read from the store. The arrays belong to the caller.
 *
 * @param key the key, never empty
 * @param value the value, possibly empty
 */
public record KeyValue(byte[] key, byte[] value) {

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyValue other
        && Arrays.equals(key, other.key)
        && Arrays.equals(value, other.value);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "KeyValue[" + HexFormat.of().formatHex(key) + "=" + value.length + " bytes]";
  }
}
