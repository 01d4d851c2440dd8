package dev.moraine.core.verb;

import dev.moraine.core.catalog.CorruptionException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.SchemaVersionInfo;
import dev.moraine.core.inline.InlineColumnType;
import dev.moraine.core.inline.InlineRowEncoder;
import dev.moraine.core.keyspace.inline.InlineArrow;
import dev.moraine.core.keyspace.key.InlineKey;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.InlineSchemaValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The inlined-data tables of a commit's tables (RFC 0002 §9.1, RFC 0004 §8.2 item 5): which schema
 * version inlined rows go under, whether that version's Arrow schema record exists and agrees, and
 * the empty tables a creation or re-shaping registers. Confined to the thread running the closure,
 * like {@link VerbState}.
 */
final class InlineSchemaVersions {
  private final VerbState s;
  private final InlineRun run;

  InlineSchemaVersions(VerbState state, InlineRun run) {
    this.s = state;
    this.run = run;
  }

  /**
   * The top-level columns among a table's live ones ({@code all}) in table order: the fields of its
   * inline chunks.
   */
  static List<ColumnValue> userColumns(List<ColumnValue> all) {
    List<ColumnValue> columns = new ArrayList<>();
    for (ColumnValue c : all) {
      if (!c.hasParentColumn()) {
        columns.add(c);
      }
    }
    columns.sort(Comparator.comparing(ColumnValue::getColumnOrder, Long::compareUnsigned));
    return columns;
  }

  /**
   * The inline types of {@code columns}, members looked up among {@code all}.
   *
   * @throws InvalidArgumentException if a column's type has no inline form
   */
  static List<InlineColumnType> types(List<ColumnValue> columns, List<ColumnValue> all) {
    List<InlineColumnType> types = new ArrayList<>(columns.size());
    for (ColumnValue c : columns) {
      types.add(InlineColumnType.of(c, all));
    }
    return types;
  }

  // ---- the version rows go under ---------------------------------------------------------------

  /**
   * The schema version rows of {@code tableId} whose Arrow schema is {@code schema} go under, as
   * stock DuckLake picks the inlined-data table it inserts into: this commit's own version when the
   * commit creates or re-shapes the table (its columns, name, schema or partition key); else the
   * table's newest registered version, when its recorded fields are the rows' (names, types, column
   * ids and members alike; nullability aside: a default, a NOT NULL, a comment or a sort key writes
   * no new table, and inserts go on into the registered one) and it began under the table's live
   * partitioning; else the version of the table's last schema-versions record, which the insert
   * then registers.
   */
  long versionFor(long tableId, byte[] schema) {
    if (s.reshapedIds.contains(tableId)) {
      return s.premiseRecord.getSchemaVersion() + 1;
    }
    List<Long> registered = run.registeredVersions(tableId);
    if (!registered.isEmpty()) {
      long newest = registered.get(registered.size() - 1);
      boolean sameFields =
          stored(tableId, newest)
              .filter(v -> !v.hasSameAsVersion())
              .map(v -> decoded(tableId, newest, v.getArrowSchema().toByteArray()))
              .map(r -> sameFields(r.getFields(), decoded(tableId, newest, schema).getFields()))
              .orElse(false);
      // A version registered before the live partitioning began takes no rows inlined since: the
      // flush puts its rows in a file without partition values (RFC 0004 §3).
      long begin = run.versionBegin(tableId, newest);
      boolean underPartitioning =
          s.partitionRecords(tableId).stream()
              .allMatch(p -> Long.compareUnsigned(begin, p.getBeginSnapshot()) >= 0);
      if (sameFields && underPartitioning) {
        return newest;
      }
    }
    return lastSchemaVersion(tableId);
  }

  /**
   * Whether two lists of fields are the same columns: names, types, members and, where the recorded
   * field carries one, the column id ({@code PARQUET:field_id}); nullability is not compared.
   */
  private static boolean sameFields(List<Field> recorded, List<Field> mine) {
    if (recorded.size() != mine.size()) {
      return false;
    }
    for (int i = 0; i < recorded.size(); i++) {
      Field r = recorded.get(i);
      Field m = mine.get(i);
      String id = r.getMetadata().get("PARQUET:field_id");
      if (!r.getName().equals(m.getName())
          || !r.getType().equals(m.getType())
          || (id != null && !id.equals(m.getMetadata().get("PARQUET:field_id")))
          || !sameFields(r.getChildren(), m.getChildren())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The version of the table's last schema-versions record: this commit's own when this commit
   * writes one for it.
   */
  private long lastSchemaVersion(long tableId) {
    if (s.schemaChangedIds.contains(tableId)) {
      return s.premiseRecord.getSchemaVersion() + 1;
    }
    List<SchemaVersionInfo> versions = s.staged.premise().schemaVersions(tableId);
    if (versions.isEmpty()) {
      throw new CorruptionException(
          "table " + Long.toUnsignedString(tableId) + " has no schema_versions record");
    }
    return versions.get(versions.size() - 1).schemaVersion();
  }

  // ---- the version's schema record -------------------------------------------------------------

  /**
   * Whether (table, version) already has an Arrow schema record, in the premise or staged by this
   * run; refuses one that names other fields or types than {@code schema} (a version's schema is
   * fixed once written, RFC 0002 §9.1). Records are compared by their decoded fields, so a record
   * another writer laid out differently but with the same meaning is accepted.
   */
  boolean alreadyRecorded(long tableId, long version, byte[] schema) {
    if (s.inline.touches(new InlineKey.Schema(tableId, version))) {
      return true;
    }
    Optional<InlineSchemaValue> value = stored(tableId, version);
    if (value.isEmpty()) {
      return false;
    }
    if (value.get().hasSameAsVersion()) {
      // A reference to another version's identical record (written by the SQL path); the chunks
      // of this version decode against that record, which this run does not re-check.
      return true;
    }
    Schema recorded = decoded(tableId, version, value.get().getArrowSchema().toByteArray());
    Schema mine = decoded(tableId, version, schema);
    if (!shape(recorded).equals(shape(mine))) {
      throw new InvalidArgumentException(
          "table "
              + Long.toUnsignedString(tableId)
              + " already records a different inline schema for schema version "
              + Long.toUnsignedString(version)
              + " ("
              + shape(recorded)
              + ", not "
              + shape(mine)
              + ")");
    }
    return true;
  }

  private static List<String> shape(Schema schema) {
    List<String> out = new ArrayList<>();
    for (Field f : schema.getFields()) {
      out.add(f.getName() + ":" + f.getType());
    }
    return out;
  }

  /** The premise's schema record of (table, version), if any. */
  private Optional<InlineSchemaValue> stored(long tableId, long version) {
    InlineKey.Schema key = new InlineKey.Schema(tableId, version);
    byte[] bytes = s.staged.premise().loadFor(v -> v.get(KeyCodec.encode(key)));
    return bytes == null
        ? Optional.empty()
        : Optional.of(ValueCodec.decode(key, bytes, InlineSchemaValue.class));
  }

  private static Schema decoded(long tableId, long version, byte[] schema) {
    return InlineArrow.decodeSchema(new InlineKey.Schema(tableId, version), schema);
  }

  // ---- registration ----------------------------------------------------------------------------

  /**
   * Registers, when the closure has returned, the empty inlined-data table of every table this
   * commit created or re-shaped, as stock DuckLake opens one on CREATE TABLE and on each ALTER that
   * changes the table's columns, name, schema or partition key (RFC 0004 §8.2 item 5): the Arrow
   * schema record of the table's columns under the commit's new schema version, unless an insert of
   * this commit recorded it already. Skipped where stock opens none: a table dropped by the same
   * commit, and a data inlining row limit of 0 ({@link VerbState#inliningRowLimit}); and where a
   * column's type has no inline form (no inline verb could insert under that version either).
   */
  void registerReshapedTables() {
    long version = s.premiseRecord.getSchemaVersion() + 1;
    for (long tableId : s.reshapedIds) {
      InlineKey.Schema key = new InlineKey.Schema(tableId, version);
      if (s.liveTable(tableId).isEmpty()
          || s.inline.touches(key)
          || s.inliningRowLimit(tableId) <= 0) {
        continue;
      }
      try {
        registerEmpty(tableId, version);
      } catch (InvalidArgumentException noInlineForm) {
        // No inline verb could insert under that version either.
      }
    }
  }

  /**
   * Records the Arrow schema of the table's live columns for {@code version}: the empty
   * inlined-data table of that version.
   *
   * @throws InvalidArgumentException if a column's type has no inline form
   */
  void registerEmpty(long tableId, long version) {
    List<ColumnValue> all = s.columnRecords(tableId);
    List<ColumnValue> columns = userColumns(all);
    byte[] schema = InlineRowEncoder.encode(columns, types(columns, all), List.of()).schema();
    s.inline.put(
        new InlineKey.Schema(tableId, version),
        InlineSchemaValue.newBuilder()
            .setArrowSchema(com.google.protobuf.ByteString.copyFrom(schema))
            .build());
  }
}
