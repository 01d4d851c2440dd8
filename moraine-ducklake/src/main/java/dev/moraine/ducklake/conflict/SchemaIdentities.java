package dev.moraine.ducklake.conflict;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Schema names and ids as of this commit's premise, for the two schema rules whose two sides speak
 * different languages: {@code dropped_schema} carries an id while {@code created_*} entries carry a
 * schema name.
 *
 * <ul>
 *   <li>My {@code dropped_schema:id} conflicts with a concurrent creation in the schema with that
 *       id's <em>name</em> (compared case-insensitively).
 *   <li>My {@code created_*:"s"."n"} conflicts with a concurrent {@code dropped_schema} of the
 *       <em>id</em> that schema {@code s} had at my premise.
 * </ul>
 *
 * With {@link #unknown()} both rules become conservative: an unnamed dropped schema conflicts with
 * any concurrent creation, and a creation in a schema of unknown id conflicts with any concurrent
 * schema drop (unless this commit itself created that schema).
 */
public final class SchemaIdentities {
  private static final SchemaIdentities UNKNOWN = new SchemaIdentities(null);

  private final Map<Long, String> namesById;

  private SchemaIdentities(Map<Long, String> namesById) {
    this.namesById = namesById;
  }

  /**
   * Known schemas.
   *
   * @param namesById schema id to schema name for (at least) the schemas this commit drops and the
   *     schemas it creates objects in, as they were at its premise
   */
  public static SchemaIdentities of(Map<Long, String> namesById) {
    return new SchemaIdentities(new TreeMap<>(namesById));
  }

  /** No knowledge: both schema rules become conservative. */
  public static SchemaIdentities unknown() {
    return UNKNOWN;
  }

  /** Whether the mapping is known. */
  public boolean known() {
    return namesById != null;
  }

  /** The name of a schema id, if known. */
  public Optional<String> nameOf(long schemaId) {
    return namesById == null ? Optional.empty() : Optional.ofNullable(namesById.get(schemaId));
  }

  /** The id of a schema name (matched case-insensitively, as DuckLake does), if known. */
  public OptionalLong idOf(String schemaName) {
    if (namesById == null) {
      return OptionalLong.empty();
    }
    for (Map.Entry<Long, String> e : namesById.entrySet()) {
      if (Names.equalIgnoringAsciiCase(e.getValue(), schemaName)) {
        return OptionalLong.of(e.getKey());
      }
    }
    return OptionalLong.empty();
  }
}
