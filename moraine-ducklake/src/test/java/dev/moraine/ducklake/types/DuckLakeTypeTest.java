package dev.moraine.ducklake.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class DuckLakeTypeTest {

  @ParameterizedTest
  @EnumSource(value = DuckLakeTypeId.class, mode = EnumSource.Mode.EXCLUDE, names = "DECIMAL")
  void parse_formatRoundTrip_everyBaseType(DuckLakeTypeId id) {
    DuckLakeType t = DuckLakeType.of(id);
    assertEquals(t, DuckLakeType.parse(t.format()));
    assertEquals(id.typeName(), t.format());
  }

  @ParameterizedTest
  @CsvSource({
    "int32,int32", "INT64,int64", "Varchar,varchar", "timestamp_us,timestamp",
        "TIMESTAMPTZ,timestamptz",
    "float64,float64", "uint128,uint128", "json,json", "variant,variant", "geometry,geometry",
    "struct,struct", "list,list", "map,map", "timestamp_s,timestamp_s", "time_ns,time_ns",
  })
  void parse_namesAndAliases(String text, String formatted) {
    assertEquals(formatted, DuckLakeType.parse(text).format());
  }

  @Test
  void decimal_formatsWithoutSpaces() {
    assertEquals("decimal(18,3)", DuckLakeType.decimal(18, 3).format());
    assertEquals(DuckLakeType.decimal(10, 2), DuckLakeType.parse("decimal(10, 2)"));
  }

  @Property
  void decimal_roundTrip(
      @ForAll @IntRange(min = 1, max = 38) int p, @ForAll @IntRange(min = 0, max = 38) int s) {
    if (s > p) {
      return;
    }
    DuckLakeType t = DuckLakeType.decimal(p, s);
    assertEquals(t, DuckLakeType.parse(t.format()));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "integer",
        "int",
        "decimal",
        "decimal(10)",
        "decimal(a,b)",
        "decimal(39,0)",
        "decimal(5,6)",
        "decimal(0,0)",
        "array",
        "int32[]",
        "",
        "ınt32",
        "struct(a int32)"
      })
  void parse_rejectsWhatDuckLakeDoesNotWrite(String text) {
    DuckLakeTypeParseException e =
        assertThrows(DuckLakeTypeParseException.class, () -> DuckLakeType.parse(text));
    assertEquals(text, e.text());
  }

  @Test
  void nested_flags() {
    assertTrue(DuckLakeType.parse("struct").isNested());
    assertTrue(DuckLakeType.parse("list").isNested());
    assertTrue(DuckLakeType.parse("map").isNested());
    assertFalse(DuckLakeType.parse("varchar").isNested());
  }

  @Test
  void constructor_rejectsPrecisionOnNonDecimal() {
    assertThrows(
        IllegalArgumentException.class, () -> new DuckLakeType(DuckLakeTypeId.INT32, 3, 0));
  }
}
