package dev.moraine.core.verb;

import static dev.moraine.core.verb.StagedRowChecks.requireAbsent;
import static dev.moraine.core.verb.StagedRowChecks.required;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.MacroImplementation;
import dev.moraine.core.keyspace.proto.MacroParameter;
import dev.moraine.core.keyspace.proto.MacroValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import dev.moraine.ducklake.rows.MacroImplRow;
import dev.moraine.ducklake.rows.MacroParametersRow;
import dev.moraine.ducklake.rows.MacroRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The staged-row door's macros (RFC 0006 §4.6, §13): CREATE MACRO as the {@code ducklake_macro},
 * {@code ducklake_macro_impl} and {@code ducklake_macro_parameters} rows DuckLake inserts, folded
 * into the one record the keyspace keeps for a macro (its implementations holding their
 * parameters), with DuckLake's ids as given; DROP MACRO as the end of its {@code ducklake_macro}
 * row (stock keeps the implementation rows, which are not versioned). A new macro takes an id from
 * the commit's range of {@code next_catalog_id}, begins at the commit's snapshot, lies in a live
 * schema and takes a name no live macro of its type there has; its implementations share one type.
 * A parameter's default given as the text {@code NULL} (stock's writing of no default) is recorded
 * as none, as the verb path records it. Confined to the thread running the translation.
 */
final class StagedMacros {
  private final StagedEntities staged;
  private final long n;
  private final List<DuckLakeOperation> operations = new ArrayList<>();

  StagedMacros(StagedEntities staged, long n) {
    this.staged = staged;
    this.n = n;
  }

  /** Drops the macros {@code ends} end: each the live row the lake holds. */
  void drop(List<StagedRows.End> ends) {
    Set<Long> seen = new HashSet<>();
    for (StagedRows.End e : ends) {
      MacroRow r = (MacroRow) e.row();
      long id = required(r.macroId(), r, "macro_id");
      requireAbsent(r.endSnapshot(), r, "end_snapshot");
      MacroValue v =
          staged
              .get(new EntityKey.Macro(id), MacroValue.class)
              .orElseThrow(
                  () ->
                      new NotFoundException(
                          ErrorCode.NOT_FOUND,
                          "the commit's rows end macro "
                              + Long.toUnsignedString(id)
                              + ", which is not live"));
      boolean same =
          Long.valueOf(v.getBeginSnapshot()).equals(r.beginSnapshot())
              && v.getMacroName().equals(r.macroName())
              && Long.valueOf(v.getSchemaId()).equals(r.schemaId());
      if (!seen.add(id) || !same || e.endSnapshot() != n) {
        throw new InvalidArgumentException(
            "the end of macro "
                + Long.toUnsignedString(id)
                + " is not of the row the lake holds, or not at snapshot "
                + n
                + ", or is given twice");
      }
      staged.delete(new EntityKey.Macro(id));
      operations.add(
          isScalar(v) ? DuckLakeOperation.DROP_MACRO : DuckLakeOperation.DROP_TABLE_MACRO);
    }
  }

  /** Creates the macros {@code macros} with their implementations and parameters. */
  void create(
      List<MacroRow> macros,
      List<MacroImplRow> impls,
      List<MacroParametersRow> parameters,
      SnapshotValue premiseRecord,
      SnapshotValue record) {
    Map<Long, List<MacroImplRow>> implsOf = new HashMap<>();
    for (MacroImplRow i : impls) {
      implsOf.computeIfAbsent(required(i.macroId(), i, "macro_id"), k -> new ArrayList<>()).add(i);
    }
    Map<List<Long>, List<MacroParametersRow>> paramsOf = new HashMap<>();
    for (MacroParametersRow p : parameters) {
      paramsOf
          .computeIfAbsent(
              List.of(required(p.macroId(), p, "macro_id"), required(p.implId(), p, "impl_id")),
              k -> new ArrayList<>())
          .add(p);
    }
    Set<Long> seen = new HashSet<>();
    for (MacroRow m : macros) {
      long id = required(m.macroId(), m, "macro_id");
      requireAbsent(m.endSnapshot(), m, "end_snapshot");
      if (!seen.add(id)
          || required(m.beginSnapshot(), m, "begin_snapshot") != n
          || !StagedRowChecks.drawn(id, premiseRecord, record)) {
        throw new InvalidArgumentException(
            "macro "
                + Long.toUnsignedString(id)
                + ": a new macro begins at "
                + n
                + ", once, its id in this commit's range of next_catalog_id");
      }
      long schemaId = required(m.schemaId(), m, "schema_id");
      String name = required(m.macroName(), m, "macro_name");
      if (staged.get(new EntityKey.Schema(schemaId), SchemaValue.class).isEmpty()) {
        throw new NotFoundException(
            ErrorCode.NOT_FOUND,
            "macro '" + name + "' names schema " + Long.toUnsignedString(schemaId) + ", not live");
      }
      List<MacroImplRow> mine = new ArrayList<>(implsOf.getOrDefault(id, List.of()));
      implsOf.remove(id);
      if (mine.isEmpty()) {
        throw new InvalidArgumentException("macro '" + name + "' has no ducklake_macro_impl row");
      }
      mine.sort(Comparator.comparing(MacroImplRow::implId));
      MacroValue.Builder value =
          MacroValue.newBuilder()
              .setMacroId(id)
              .setBeginSnapshot(n)
              .setSchemaId(schemaId)
              .setMacroName(name);
      String type = required(mine.get(0).type(), mine.get(0), "type");
      for (MacroImplRow i : mine) {
        if (!type.equals(required(i.type(), i, "type"))) {
          throw new InvalidArgumentException(
              "the implementations of macro '" + name + "' do not share one macro type");
        }
        long implId = required(i.implId(), i, "impl_id");
        MacroImplementation.Builder b =
            MacroImplementation.newBuilder()
                .setImplId(implId)
                .setDialect(required(i.dialect(), i, "dialect"))
                .setSql(required(i.sql(), i, "sql"))
                .setMacroType(type);
        List<MacroParametersRow> params =
            new ArrayList<>(paramsOf.getOrDefault(List.of(id, implId), List.of()));
        paramsOf.remove(List.of(id, implId));
        params.sort(Comparator.comparing(MacroParametersRow::columnId));
        for (MacroParametersRow p : params) {
          MacroParameter.Builder pb =
              MacroParameter.newBuilder()
                  .setColumnId(required(p.columnId(), p, "column_id"))
                  .setParameterName(required(p.parameterName(), p, "parameter_name"))
                  .setParameterType(required(p.parameterType(), p, "parameter_type"))
                  .setDefaultValueType(required(p.defaultValueType(), p, "default_value_type"));
          if (p.defaultValue() != null && !p.defaultValue().equals("NULL")) {
            pb.setDefaultValue(p.defaultValue());
          }
          b.addParameters(pb);
        }
        value.addImplementations(b);
      }
      boolean taken =
          staged.named(EntityKind.MACRO, schemaId, name, MacroValue.class).stream()
              .anyMatch(
                  other ->
                      Names.same(other.getMacroName(), name)
                          && other.getImplementationsCount() > 0
                          && other.getImplementations(0).getMacroType().equals(type));
      if (taken) {
        throw new AlreadyExistsException(
            "a " + type + " macro named '" + name + "' already exists");
      }
      MacroValue built = value.build();
      staged.put(new EntityKey.Macro(id), built);
      operations.add(
          isScalar(built)
              ? DuckLakeOperation.CREATE_SCALAR_MACRO
              : DuckLakeOperation.CREATE_TABLE_MACRO);
    }
    if (!implsOf.isEmpty() || !paramsOf.isEmpty()) {
      throw new InvalidArgumentException(
          "ducklake_macro_impl or ducklake_macro_parameters rows name macros this commit does not"
              + " create: "
              + implsOf.keySet()
              + " "
              + paramsOf.keySet());
    }
  }

  /** The operations the commit path counts for the schema version. */
  List<DuckLakeOperation> operations() {
    return List.copyOf(operations);
  }

  private static boolean isScalar(MacroValue m) {
    return m.getImplementationsCount() == 0
        || m.getImplementations(0).getMacroType().equals("scalar");
  }
}
