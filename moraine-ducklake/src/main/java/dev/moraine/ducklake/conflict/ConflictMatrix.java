package dev.moraine.ducklake.conflict;

import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.changes.ChangeSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * DuckLake 1.0's conflict check as a pure function of two change sets.
 *
 * <p>The check is asymmetric, as in DuckLake: only the later committer checks, against the union of
 * everything committed since its premise. {@code check(a, b)} and {@code check(b, a)} can differ:
 * an insert that finds a concurrent {@code ALTER} conflicts, while an {@code ALTER} that finds a
 * concurrent insert does not.
 *
 * <p>Rules (this commit's entry, then the concurrent entries it collides with):
 *
 * <ul>
 *   <li>id-keyed rules: see {@link #conflictingKinds(ChangeKind)};
 *   <li>{@code created_schema "n"}: a concurrent {@code created_schema} of the same name, compared
 *       ASCII case-insensitively;
 *   <li>{@code created_table/created_view "s"."n"}: a concurrent {@code dropped_schema} of schema
 *       {@code s}, or a concurrent {@code created_table} or {@code created_view} with the same
 *       schema and name (both case-insensitive; a table and a view share one namespace);
 *   <li>{@code created_scalar_macro} / {@code created_table_macro "s"."m"}: a concurrent drop of
 *       schema {@code s}, or a concurrent creation of the same macro kind and name;
 *   <li>{@code dropped_schema}: a concurrent drop of the same schema, or a concurrent {@code
 *       created_table}/{@code created_view} in a schema of the same name (macros do not count);
 *   <li>{@code deleted_from_table T} against a concurrent {@code deleted_from_table T}: only if the
 *       data files of both sides intersect ({@link DeleteTargets});
 *   <li>an unclassifiable entry on either side conflicts (on this side, only when something was
 *       committed concurrently).
 * </ul>
 *
 * An id-carrying entry of this commit whose id it numbered itself ({@link ProvisionalIds}) takes
 * part in no rule: it names an object no concurrent commit could see.
 *
 * <p>The legacy {@code compacted_table} kind never conflicts.
 */
public final class ConflictMatrix {
  private ConflictMatrix() {}

  /**
   * The concurrent kinds that conflict with an entry of {@code mine} kind when both carry the same
   * id. The name-keyed rules, the schema rules and the data-file rule are not part of this table.
   */
  public static Set<ChangeKind> conflictingKinds(ChangeKind mine) {
    return IdRules.conflictingWith(mine);
  }

  /**
   * {@link #check(ChangeSet, ChangeSet, DeleteTargets, SchemaIdentities)} with unknown schema
   * identities.
   */
  public static ConflictVerdict check(ChangeSet mine, ChangeSet since, DeleteTargets facts) {
    return check(mine, since, facts, SchemaIdentities.unknown());
  }

  /**
   * {@link #check(ChangeSet, ChangeSet, DeleteTargets, SchemaIdentities, ProvisionalIds)} for a
   * commit that numbered no object of its own (or whose caller does not know its premise's
   * counter): every id in {@code mine} is matched against concurrent entries.
   */
  public static ConflictVerdict check(
      ChangeSet mine, ChangeSet since, DeleteTargets facts, SchemaIdentities schemas) {
    return check(mine, since, facts, schemas, ProvisionalIds.none());
  }

  /**
   * Decides whether this commit's changes may be applied on top of the changes committed since its
   * premise.
   *
   * @param mine this commit's changes
   * @param since the union of the changes of every commit after this commit's premise
   * @param facts data-file facts for the delete-versus-delete rule
   * @param schemas schema names and ids at the premise, for the schema rules
   * @param provisional the ids {@code mine} numbered itself (at or above its premise's {@code
   *     next_catalog_id}): an entry of {@code mine} carrying one of them is not matched by id,
   *     since a concurrent commit's entry with the same number names a different object
   * @return benign, or a true conflict with every cause found
   */
  public static ConflictVerdict check(
      ChangeSet mine,
      ChangeSet since,
      DeleteTargets facts,
      SchemaIdentities schemas,
      ProvisionalIds provisional) {
    Objects.requireNonNull(mine, "mine");
    Objects.requireNonNull(since, "since");
    Objects.requireNonNull(facts, "facts");
    Objects.requireNonNull(schemas, "schemas");
    Objects.requireNonNull(provisional, "provisional");
    if (since.isEmpty()) {
      return ConflictVerdict.benign();
    }
    List<ConflictCause> causes = new ArrayList<>();
    for (ChangeEntry m : mine.entries()) {
      if (m instanceof ChangeEntry.ById byId && provisional.contains(byId.id())) {
        // An object this commit created: no concurrent commit can have touched it.
        continue;
      }
      checkEntry(m, mine, since, facts, schemas, causes);
    }
    unclassifiableTheirs(mine, since, causes);
    return causes.isEmpty() ? ConflictVerdict.benign() : new ConflictVerdict(causes);
  }

  private static void checkEntry(
      ChangeEntry m,
      ChangeSet mine,
      ChangeSet since,
      DeleteTargets facts,
      SchemaIdentities schemas,
      List<ConflictCause> causes) {
    if (m instanceof ChangeEntry.Unclassifiable) {
      ChangeEntry first = since.entries().first();
      causes.add(
          new ConflictCause(
              m,
              first,
              ConflictRule.UNCLASSIFIABLE,
              "conflict: this commit carries the unclassifiable change " + quote(m)));
      return;
    }
    if (m instanceof ChangeEntry.ById byId) {
      idRules(byId, since, causes);
      if (byId.kind() == ChangeKind.DROPPED_SCHEMA) {
        NameRules.droppedSchemaVersusCreations(byId, since, schemas, causes);
      }
      if (byId.kind() == ChangeKind.DELETED_FROM_TABLE) {
        sameFileDeletes(byId, since, facts, causes);
      }
    } else if (m instanceof ChangeEntry.BySchemaName created) {
      NameRules.createdSchema(created, since, causes);
    } else if (m instanceof ChangeEntry.ByQualifiedName created) {
      NameRules.createdInSchema(created, mine, since, schemas, causes);
    }
  }

  private static void idRules(ChangeEntry.ById m, ChangeSet since, List<ConflictCause> causes) {
    Set<ChangeKind> against = IdRules.conflictingWith(m.kind());
    for (ChangeEntry t : since.entries()) {
      if (t instanceof ChangeEntry.ById other
          && other.id() == m.id()
          && against.contains(other.kind())) {
        causes.add(
            new ConflictCause(
                m,
                t,
                ConflictRule.SAME_OBJECT,
                "conflict: " + quote(m) + " collides with concurrent " + quote(t)));
      }
    }
  }

  private static void sameFileDeletes(
      ChangeEntry.ById m, ChangeSet since, DeleteTargets facts, List<ConflictCause> causes) {
    ChangeEntry theirs = new ChangeEntry.ById(ChangeKind.DELETED_FROM_TABLE, m.id());
    if (!since.contains(theirs)) {
      return;
    }
    Optional<Set<Long>> overlap = facts.overlap();
    if (overlap.isEmpty()) {
      causes.add(
          new ConflictCause(
              m,
              theirs,
              ConflictRule.SAME_DATA_FILE,
              "conflict: concurrent deletes from table "
                  + Long.toUnsignedString(m.id())
                  + " and the data files they touch are not known"));
    } else if (!overlap.get().isEmpty()) {
      causes.add(
          new ConflictCause(
              m,
              theirs,
              ConflictRule.SAME_DATA_FILE,
              "conflict: concurrent deletes from table "
                  + Long.toUnsignedString(m.id())
                  + " touch data files "
                  + overlap.get()));
    }
  }

  private static void unclassifiableTheirs(
      ChangeSet mine, ChangeSet since, List<ConflictCause> causes) {
    for (ChangeEntry t : since.entries()) {
      if (t instanceof ChangeEntry.Unclassifiable) {
        ChangeEntry m = mine.isEmpty() ? t : mine.entries().first();
        causes.add(
            new ConflictCause(
                m,
                t,
                ConflictRule.UNCLASSIFIABLE,
                "conflict: a concurrent commit carries the unclassifiable change " + quote(t)));
      }
    }
  }

  static String quote(ChangeEntry e) {
    return "'" + e.raw() + "'";
  }
}
