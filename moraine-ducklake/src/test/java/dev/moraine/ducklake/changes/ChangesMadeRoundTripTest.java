package dev.moraine.ducklake.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class ChangesMadeRoundTripTest {

  @Property(tries = 2000)
  void parseOfEmit_isIdentity(@ForAll("changeSets") ChangeSet set) {
    String text = ChangesMade.emit(set);
    assertEquals(set, ChangesMade.parse(text), () -> "text: " + text);
  }

  @Property(tries = 500)
  void emit_isDeterministicAcrossInsertionOrder(@ForAll("entryLists") List<ChangeEntry> entries) {
    List<ChangeEntry> reversed = new java.util.ArrayList<>(entries);
    java.util.Collections.reverse(reversed);
    assertEquals(ChangesMade.emit(ChangeSet.of(entries)), ChangesMade.emit(ChangeSet.of(reversed)));
  }

  @Property(tries = 500)
  void union_isSetUnion(@ForAll("changeSets") ChangeSet a, @ForAll("changeSets") ChangeSet b) {
    ChangeSet u = a.union(b);
    assertEquals(u, b.union(a));
    assertEquals(a.size() + b.size() - a.entries().stream().filter(b::contains).count(), u.size());
  }

  @Property(tries = 2000)
  void parse_arbitraryText_failsOnlyWithTypedError(@ForAll("noisyTexts") String text) {
    try {
      ChangesMade.parse(text);
    } catch (ChangesMadeParseException e) {
      org.junit.jupiter.api.Assertions.assertTrue(
          e.position() >= 0 && e.position() <= text.length());
    }
  }

  @Property(tries = 500)
  void parse_kindWordCase_ignored(@ForAll("changeSets") ChangeSet set) {
    String text = ChangesMade.emit(set);
    if (text == null) {
      return;
    }
    StringBuilder upper = new StringBuilder();
    boolean inQuotes = false;
    for (char c : text.toCharArray()) {
      if (c == '"') {
        inQuotes = !inQuotes;
      }
      upper.append(inQuotes ? c : Character.toUpperCase(c));
    }
    assertEquals(set, ChangesMade.parse(upper.toString()));
  }

  @Provide
  Arbitrary<String> noisyTexts() {
    Arbitrary<String> fragments =
        Arbitraries.oneOf(
            Arbitraries.of(
                "inserted_into_table",
                "created_table",
                "created_schema",
                "frob",
                ":",
                ",",
                "\"",
                ".",
                "1",
                "-",
                "+",
                " ",
                "18446744073709551616",
                "x"),
            Arbitraries.strings().ofMaxLength(3));
    return fragments.list().ofMaxSize(12).map(l -> String.join("", l));
  }

  @Provide
  Arbitrary<ChangeSet> changeSets() {
    return entryLists().map(ChangeSet::of);
  }

  @Provide
  Arbitrary<List<ChangeEntry>> entryLists() {
    return entries().list().ofMaxSize(12);
  }

  private Arbitrary<ChangeEntry> entries() {
    List<ChangeKind> idKinds =
        java.util.Arrays.stream(ChangeKind.values())
            .filter(k -> k.emittable() && k.carriesId())
            .toList();
    List<ChangeKind> qualifiedKinds =
        java.util.Arrays.stream(ChangeKind.values())
            .filter(k -> k.shape() == ChangeKind.ValueShape.QUALIFIED_NAME)
            .toList();
    Arbitrary<Long> ids =
        Arbitraries.oneOf(Arbitraries.longs().between(0, 50), Arbitraries.longs());
    Arbitrary<ChangeEntry> byId =
        Combinators.combine(Arbitraries.of(idKinds), ids).as(ChangeEntry.ById::new);
    Arbitrary<ChangeEntry> schema = names().map(ChangeEntry.BySchemaName::new);
    Arbitrary<ChangeEntry> qualified =
        Combinators.combine(Arbitraries.of(qualifiedKinds), names(), names())
            .as(ChangeEntry.ByQualifiedName::new);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(5, byId),
        net.jqwik.api.Tuple.of(2, schema),
        net.jqwik.api.Tuple.of(3, qualified));
  }

  private Arbitrary<String> names() {
    Arbitrary<String> tricky =
        Arbitraries.strings()
            .withChars("ab\"\",:.'\\ é€日")
            .withCharRange('\u0100', '\u017f')
            .ofMaxLength(8);
    Arbitrary<String> any =
        Arbitraries.strings()
            .all()
            .ofMaxLength(6)
            .filter(s -> s.codePoints().allMatch(Character::isDefined));
    return Arbitraries.oneOf(
        tricky, any, Arbitraries.of("main", "MAIN", "", "\"", "\"\"", ",", ":", "."));
  }
}
