package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.OptionScopeValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.TableValue;
import dev.moraine.ducklake.rows.MetadataRow;
import java.util.List;
import java.util.Set;

/**
 * The staged-row door's option changes (RFC 0006 §4.9): DuckLake's {@code set_option} inserts a
 * {@code ducklake_metadata} row, or updates its value (which the door takes as the old row deleted
 * and the new one inserted). Options are outside the snapshot protocol: the commit mints no
 * snapshot, lands as a head-preserving batch, and never conflicts (last write wins), so rows
 * authored against any older snapshot are as good against the head. A scope is {@code NULL} (the
 * lake), {@code 'schema'} or {@code 'table'} with the id of a live schema or table. The keys the
 * lake fixes at its creation ({@code version}, {@code created_by}, {@code data_path}, {@code
 * encrypted}, {@code wal_path}) are refused.
 *
 * <p>Confined to the thread running the translation.
 */
final class StagedOptions {
  private static final Set<String> FIXED =
      Set.of("version", "created_by", "data_path", "encrypted", "wal_path");

  private StagedOptions() {}

  /** Whether {@code ops} are option changes only: inserts and deletes of metadata rows. */
  static boolean onlyOptions(List<StagedRows.Op> ops) {
    return !ops.isEmpty()
        && ops.stream()
            .allMatch(
                op ->
                    op != null
                        && op.row() instanceof MetadataRow
                        && !(op instanceof StagedRows.End));
  }

  /** Applies the changes: every delete first, then every insert. */
  static void apply(StagedEntities staged, List<StagedRows.Op> ops) {
    for (StagedRows.Op op : ops) {
      if (op instanceof StagedRows.Delete d) {
        MetadataRow r = (MetadataRow) d.row();
        EntityKey.OptionScope scope = scope(staged, r);
        OptionScopeValue current =
            staged.get(scope, OptionScopeValue.class).orElse(OptionScopeValue.getDefaultInstance());
        // Last write wins: the value another writer set since the base is replaced or removed
        // all the same, as DuckLake's own UPDATE of the row would.
        if (!current.containsOptions(r.key())) {
          continue;
        }
        OptionScopeValue left = current.toBuilder().removeOptions(r.key()).build();
        if (left.getOptionsCount() == 0) {
          staged.delete(scope);
        } else {
          staged.put(scope, left);
        }
      }
    }
    for (StagedRows.Op op : ops) {
      if (op instanceof StagedRows.Insert i) {
        MetadataRow r = (MetadataRow) i.row();
        EntityKey.OptionScope scope = scope(staged, r);
        OptionScopeValue current =
            staged.get(scope, OptionScopeValue.class).orElse(OptionScopeValue.getDefaultInstance());
        // Last write wins over a value set since the base (two sessions setting one option).
        staged.put(
            scope,
            current.toBuilder().putOptions(r.key(), required(r.value(), r, "value")).build());
      }
    }
  }

  private static EntityKey.OptionScope scope(StagedEntities staged, MetadataRow r) {
    String key = required(r.key(), r, "key");
    if (key.isEmpty() || FIXED.contains(key)) {
      throw new InvalidArgumentException(
          "option '" + key + "' is fixed when the lake is created, or not an option");
    }
    if (r.scope() == null) {
      if (r.scopeId() != null) {
        throw new InvalidArgumentException("option '" + key + "' has a scope id but no scope");
      }
      return EntityKey.OptionScope.global();
    }
    long id = required(r.scopeId(), r, "scope_id");
    switch (r.scope()) {
      case "schema" -> {
        if (staged.get(new EntityKey.Schema(id), SchemaValue.class).isEmpty()) {
          throw new NotFoundException(
              ErrorCode.NOT_FOUND, "option '" + key + "' names schema " + id + ", not live");
        }
        return new EntityKey.OptionScope(EntityKey.OptionScope.SCHEMA, id);
      }
      case "table" -> {
        if (staged.get(new EntityKey.Table(id), TableValue.class).isEmpty()) {
          throw new NotFoundException(
              ErrorCode.NOT_FOUND, "option '" + key + "' names table " + id + ", not live");
        }
        return new EntityKey.OptionScope(EntityKey.OptionScope.TABLE, id);
      }
      default ->
          throw new InvalidArgumentException(
              "option '" + key + "' has scope '" + r.scope() + "', not schema or table");
    }
  }
}
