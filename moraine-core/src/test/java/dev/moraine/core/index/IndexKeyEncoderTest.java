package dev.moraine.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.IndexInfo;
import dev.moraine.core.keyspace.key.IndexEntryKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The properties of {@link IndexKeyEncoder} that make an index usable: keys sort as their value
 * tuples do (ascending, descending, NULLs first or last), distinct splits of a composite key stay
 * distinct, and values an index cannot hold are refused. That the bytes are the Rust crate's is
 * {@code CrateIndexKeysTest}'s (moraine-store), against keys the crate wrote.
 */
class IndexKeyEncoderTest {
  private static IndexInfo index(
      int columns, boolean unique, boolean descending, boolean nullsFirst) {
    List<Long> ids = new ArrayList<>();
    for (long i = 1; i <= columns; i++) {
      ids.add(i);
    }
    return new IndexInfo(
        1,
        9,
        1,
        "i",
        ids,
        unique,
        Collections.nCopies(columns, descending),
        Collections.nCopies(columns, nullsFirst),
        Optional.empty(),
        Optional.empty(),
        OptionalLong.empty(),
        Optional.empty());
  }

  private static byte[] key(IndexInfo index, IndexKeyValue... values) {
    return IndexKeyEncoder.canonical(index, Arrays.asList(values)).bytes();
  }

  /** Sorting {@code values} by their keys gives their order (or its reverse, for DESC). */
  private static <T> void assertKeysSortAsValues(
      List<T> values, Comparator<T> order, Function<T, IndexKeyValue> asKey) {
    for (boolean descending : new boolean[] {false, true}) {
      IndexInfo index = index(1, false, descending, false);
      List<T> byKey = new ArrayList<>(values);
      byKey.sort(
          (a, b) -> Arrays.compareUnsigned(key(index, asKey.apply(a)), key(index, asKey.apply(b))));
      List<T> byValue = new ArrayList<>(values);
      byValue.sort(descending ? order.reversed() : order);
      assertEquals(byValue, byKey, descending ? "descending" : "ascending");
    }
  }

  @Test
  void integersFloatsAndText_sortAsTheirValues() {
    Random random = new Random(7);
    List<Long> longs = new ArrayList<>(List.of(Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE));
    List<Double> doubles =
        new ArrayList<>(
            List.of(
                Double.NEGATIVE_INFINITY,
                -1e300,
                -1.0,
                0.0,
                1e-300,
                2.5,
                Double.POSITIVE_INFINITY));
    List<String> texts = new ArrayList<>(List.of("", "\0", "\u0001", "a", "a\0", "ab", "b", "é"));
    for (int i = 0; i < 200; i++) {
      longs.add(random.nextLong());
      doubles.add(random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20));
      byte[] b = new byte[random.nextInt(6)];
      for (int k = 0; k < b.length; k++) {
        b[k] = (byte) (random.nextInt(3) == 0 ? random.nextInt(2) : 'a' + random.nextInt(3));
      }
      texts.add(new String(b, java.nio.charset.StandardCharsets.ISO_8859_1));
    }
    assertKeysSortAsValues(
        longs.stream().distinct().toList(), Long::compare, v -> new IndexKeyValue.Signed(v, 8));
    assertKeysSortAsValues(
        longs.stream().map(v -> (int) (long) v).distinct().toList(),
        Integer::compare,
        v -> new IndexKeyValue.Signed(v, 4));
    assertKeysSortAsValues(
        longs.stream().distinct().toList(),
        Long::compareUnsigned,
        v -> new IndexKeyValue.Unsigned(v, 8));
    assertKeysSortAsValues(
        doubles.stream().distinct().toList(), Double::compare, v -> new IndexKeyValue.Float64(v));
    assertKeysSortAsValues(
        texts.stream().distinct().toList(),
        (a, b) ->
            Arrays.compareUnsigned(
                a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        IndexKeyValue.Text::new);
  }

  @Test
  void zerosAndNaNs_areOneValueEach() {
    IndexInfo index = index(1, true, false, false);
    assertEquals(
        Arrays.toString(key(index, new IndexKeyValue.Float64(-0.0))),
        Arrays.toString(key(index, new IndexKeyValue.Float64(0.0))));
    assertEquals(
        Arrays.toString(key(index, new IndexKeyValue.Float32(Float.intBitsToFloat(0xffc0_0001)))),
        Arrays.toString(key(index, new IndexKeyValue.Float32(Float.NaN))));
  }

  @Test
  void nulls_sortLastOrFirst_andNeverTakeTheUniqueShape() {
    for (boolean nullsFirst : new boolean[] {false, true}) {
      for (boolean descending : new boolean[] {false, true}) {
        IndexInfo index = index(1, true, descending, nullsFirst);
        byte[] none = key(index, (IndexKeyValue) null);
        for (long v : new long[] {Long.MIN_VALUE, 0, Long.MAX_VALUE}) {
          int c = Arrays.compareUnsigned(none, key(index, new IndexKeyValue.Signed(v, 8)));
          assertTrue(
              nullsFirst ? c < 0 : c > 0, "nulls first " + nullsFirst + ", desc " + descending);
        }
        var withNull = IndexKeyEncoder.canonical(index, Collections.singletonList(null));
        assertTrue(withNull.hasNull());
        assertInstanceOf(IndexEntryKey.Multi.class, IndexKeyEncoder.entryKey(index, withNull, 3));
        var plain = IndexKeyEncoder.canonical(index, List.of(new IndexKeyValue.Bool(true)));
        assertInstanceOf(IndexEntryKey.Unique.class, IndexKeyEncoder.entryKey(index, plain, 3));
      }
    }
  }

  @Test
  void compositeKeys_keepTheirComponentsApart() {
    IndexInfo index = index(2, false, false, false);
    byte[] abC = key(index, new IndexKeyValue.Text("ab"), new IndexKeyValue.Text("c"));
    byte[] aBc = key(index, new IndexKeyValue.Text("a"), new IndexKeyValue.Text("bc"));
    assertFalse(Arrays.equals(abC, aBc));
    assertTrue(Arrays.compareUnsigned(aBc, abC) < 0, "('a', 'bc') sorts before ('ab', 'c')");
  }

  @Test
  void valuesAnIndexCannotHold_areRefused() {
    IndexInfo one = index(1, false, false, false);
    assertThrows(InvalidArgumentException.class, () -> key(one, new IndexKeyValue.Signed(128, 1)));
    assertThrows(InvalidArgumentException.class, () -> key(one, new IndexKeyValue.Signed(-129, 1)));
    assertThrows(
        InvalidArgumentException.class, () -> key(one, new IndexKeyValue.Unsigned(256, 1)));
    key(one, new IndexKeyValue.Signed(-128, 1));
    key(one, new IndexKeyValue.Unsigned(255, 1));
    key(one, new IndexKeyValue.Bytes(new byte[IndexKeyEncoder.MAX_KEY_BYTES]));
    assertThrows(
        InvalidArgumentException.class,
        () -> key(one, new IndexKeyValue.Bytes(new byte[IndexKeyEncoder.MAX_KEY_BYTES + 1])));
    assertThrows(
        InvalidArgumentException.class,
        () ->
            IndexKeyEncoder.canonical(
                index(2, false, false, false), List.of(new IndexKeyValue.Bool(true))));
  }
}
