package dev.moraine.ducklake.conflict;

import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.changes.ChangeSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** The name-keyed and schema rules of the matrix (see {@link ConflictMatrix}). */
final class NameRules {
  private NameRules() {}

  static void createdSchema(
      ChangeEntry.BySchemaName m, ChangeSet since, List<ConflictCause> causes) {
    for (ChangeEntry t : since.entries()) {
      if (t instanceof ChangeEntry.BySchemaName other
          && Names.equalIgnoringAsciiCase(other.schemaName(), m.schemaName())) {
        causes.add(
            new ConflictCause(
                m,
                t,
                ConflictRule.SAME_NAME,
                "conflict: schema \"" + m.schemaName() + "\" was created concurrently"));
      }
    }
  }

  static void createdInSchema(
      ChangeEntry.ByQualifiedName m,
      ChangeSet mine,
      ChangeSet since,
      SchemaIdentities schemas,
      List<ConflictCause> causes) {
    schemaDroppedUnderCreation(m, mine, since, schemas, causes);
    for (ChangeEntry t : since.entries()) {
      if (t instanceof ChangeEntry.ByQualifiedName other
          && sameNamespace(m.kind(), other.kind())
          && Names.equalIgnoringAsciiCase(other.schemaName(), m.schemaName())
          && Names.equalIgnoringAsciiCase(other.name(), m.name())) {
        causes.add(
            new ConflictCause(
                m,
                t,
                ConflictRule.SAME_NAME,
                "conflict: \""
                    + m.schemaName()
                    + "\".\""
                    + m.name()
                    + "\" was created concurrently as "
                    + ConflictMatrix.quote(t)));
      }
    }
  }

  /** Tables and views share one namespace; each macro kind has its own. */
  private static boolean sameNamespace(ChangeKind a, ChangeKind b) {
    return a == b || isRelation(a) && isRelation(b);
  }

  private static boolean isRelation(ChangeKind k) {
    return k == ChangeKind.CREATED_TABLE || k == ChangeKind.CREATED_VIEW;
  }

  private static void schemaDroppedUnderCreation(
      ChangeEntry.ByQualifiedName m,
      ChangeSet mine,
      ChangeSet since,
      SchemaIdentities schemas,
      List<ConflictCause> causes) {
    if (createdInThisCommit(m.schemaName(), mine)) {
      return; // the schema is new here, so no concurrent commit can have dropped it
    }
    OptionalLong schemaId = schemas.idOf(m.schemaName());
    for (ChangeEntry t : since.entries()) {
      if (t.kind() != ChangeKind.DROPPED_SCHEMA) {
        continue;
      }
      long dropped = ((ChangeEntry.ById) t).id();
      if (schemaId.isEmpty() || schemaId.getAsLong() == dropped) {
        String why =
            schemaId.isEmpty() ? " (schema id unknown, assumed to be the dropped one)" : "";
        causes.add(
            new ConflictCause(
                m,
                t,
                ConflictRule.SCHEMA_DROPPED,
                "conflict: "
                    + ConflictMatrix.quote(m)
                    + " is in a schema dropped concurrently by "
                    + ConflictMatrix.quote(t)
                    + why));
      }
    }
  }

  private static boolean createdInThisCommit(String schemaName, ChangeSet mine) {
    for (ChangeEntry e : mine.ofKind(ChangeKind.CREATED_SCHEMA)) {
      if (Names.equalIgnoringAsciiCase(((ChangeEntry.BySchemaName) e).schemaName(), schemaName)) {
        return true;
      }
    }
    return false;
  }

  static void droppedSchemaVersusCreations(
      ChangeEntry.ById m, ChangeSet since, SchemaIdentities schemas, List<ConflictCause> causes) {
    Optional<String> name = schemas.nameOf(m.id());
    for (ChangeEntry t : since.entries()) {
      if (!(t instanceof ChangeEntry.ByQualifiedName other) || !isRelation(other.kind())) {
        continue;
      }
      if (name.isEmpty() || Names.equalIgnoringAsciiCase(name.get(), other.schemaName())) {
        String why = name.isEmpty() ? " (schema name unknown, assumed to match)" : "";
        causes.add(
            new ConflictCause(
                m,
                t,
                ConflictRule.SCHEMA_DROPPED,
                "conflict: dropping schema "
                    + Long.toUnsignedString(m.id())
                    + " while "
                    + ConflictMatrix.quote(t)
                    + " was created in it concurrently"
                    + why));
      }
    }
  }
}
