package dev.moraine.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class Utf8OrderTest {
  /** The observed case: the Rust implementation sorts U+FF21 before U+1F600; compareTo does not. */
  @Test
  void fullwidth_a_sorts_before_an_emoji_unlike_string_compare_to() {
    String fullwidthA = "\uff21";
    String grinning = new String(Character.toChars(0x1f600));
    assertTrue(Utf8Order.compare(fullwidthA, grinning) < 0);
    assertTrue(fullwidthA.compareTo(grinning) > 0);
  }

  @Property(tries = 3000)
  void order_is_the_order_of_the_utf8_bytes(@ForAll String a, @ForAll String b) {
    // jqwik strings may hold unpaired surrogates, which have no UTF-8 form; keep valid text only.
    if (!valid(a) || !valid(b)) {
      return;
    }
    assertEquals(
        Integer.signum(
            Arrays.compareUnsigned(
                a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8))),
        Integer.signum(Utf8Order.compare(a, b)),
        a + " vs " + b);
  }

  private static boolean valid(String s) {
    return s.codePoints().noneMatch(c -> c >= 0xd800 && c <= 0xdfff);
  }
}
