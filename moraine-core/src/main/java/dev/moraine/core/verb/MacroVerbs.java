package dev.moraine.core.verb;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.NewMacro;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.key.EntityKind;
import dev.moraine.core.keyspace.proto.MacroImplementation;
import dev.moraine.core.keyspace.proto.MacroParameter;
import dev.moraine.core.keyspace.proto.MacroValue;
import dev.moraine.core.keyspace.proto.SchemaValue;
import dev.moraine.core.view.Names;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.ops.DuckLakeOperation;
import java.util.List;

/**
 * Creating and dropping scalar and table macros; {@link Transaction} documents each verb's
 * contract. A macro's record holds its implementations and their parameters, numbered from 0 in the
 * order given, as the keyspace keeps them. Macros bump {@code schema_version} but write no {@code
 * schema_versions} record, as stock DuckLake does.
 */
public final class MacroVerbs {
  private final VerbState s;

  public MacroVerbs(VerbState state) {
    this.s = state;
  }

  public long create(long schemaId, String name, NewMacro macro) {
    SchemaValue schema = s.requireSchema(schemaId);
    Names.nonEmpty("macro", name);
    if (macro == null || macro.implementations() == null || macro.implementations().isEmpty()) {
      throw new InvalidArgumentException("macro '" + name + "' needs at least one implementation");
    }
    String type = null;
    for (NewMacro.Implementation i : macro.implementations()) {
      validate(name, i);
      if (type != null && !type.equals(i.macroType())) {
        throw new InvalidArgumentException(
            "the implementations of macro '" + name + "' must share one macro type");
      }
      type = i.macroType();
    }
    String macroType = type;
    boolean taken =
        s.staged.named(EntityKind.MACRO, schemaId, name, MacroValue.class).stream()
            .anyMatch(m -> Names.same(m.getMacroName(), name) && typeOf(m).equals(macroType));
    if (taken) {
      throw new AlreadyExistsException(
          "a " + macroType + " macro named '" + name + "' already exists");
    }
    long id = s.nextCatalogId++;
    MacroValue.Builder value =
        MacroValue.newBuilder()
            .setMacroId(id)
            .setBeginSnapshot(s.newSnapshotId)
            .setSchemaId(schemaId)
            .setMacroName(name);
    List<NewMacro.Implementation> impls = macro.implementations();
    for (int i = 0; i < impls.size(); i++) {
      NewMacro.Implementation impl = impls.get(i);
      MacroImplementation.Builder b =
          MacroImplementation.newBuilder()
              .setImplId(i)
              .setDialect(impl.dialect())
              .setSql(impl.sql())
              .setMacroType(impl.macroType());
      for (int p = 0; p < impl.parameters().size(); p++) {
        NewMacro.Parameter param = impl.parameters().get(p);
        MacroParameter.Builder pb =
            MacroParameter.newBuilder()
                .setColumnId(p)
                .setParameterName(param.name())
                .setParameterType(param.type())
                .setDefaultValueType(param.defaultValueType());
        param.defaultValue().ifPresent(pb::setDefaultValue);
        b.addParameters(pb);
      }
      value.addImplementations(b);
    }
    s.staged.put(new EntityKey.Macro(id), value.build());
    boolean scalar = macroType.equals(NewMacro.SCALAR);
    s.record(
        scalar ? DuckLakeOperation.CREATE_SCALAR_MACRO : DuckLakeOperation.CREATE_TABLE_MACRO,
        new ChangeEntry.ByQualifiedName(
            scalar ? ChangeKind.CREATED_SCALAR_MACRO : ChangeKind.CREATED_TABLE_MACRO,
            schema.getSchemaName(),
            name));
    return id;
  }

  public void drop(long macroId) {
    MacroValue macro =
        s.staged
            .get(new EntityKey.Macro(macroId), MacroValue.class)
            .orElseThrow(() -> VerbState.notFound("macro " + Long.toUnsignedString(macroId)));
    s.staged.delete(new EntityKey.Macro(macroId));
    boolean scalar = typeOf(macro).equals(NewMacro.SCALAR);
    s.record(
        scalar ? DuckLakeOperation.DROP_MACRO : DuckLakeOperation.DROP_TABLE_MACRO,
        new ChangeEntry.ById(
            scalar ? ChangeKind.DROPPED_SCALAR_MACRO : ChangeKind.DROPPED_TABLE_MACRO, macroId));
  }

  private static String typeOf(MacroValue m) {
    return m.getImplementationsCount() == 0 ? "" : m.getImplementations(0).getMacroType();
  }

  private static void validate(String name, NewMacro.Implementation i) {
    if (i == null) {
      throw new InvalidArgumentException("an implementation of macro '" + name + "' is null");
    }
    Names.nonEmpty("macro dialect", i.dialect());
    Names.nonEmpty("macro SQL", i.sql());
    if (!NewMacro.SCALAR.equals(i.macroType()) && !NewMacro.TABLE.equals(i.macroType())) {
      throw new InvalidArgumentException(
          "macro type must be 'scalar' or 'table', got '" + i.macroType() + "'");
    }
    if (i.parameters() == null) {
      throw new InvalidArgumentException("the parameters of macro '" + name + "' are null");
    }
    for (NewMacro.Parameter p : i.parameters()) {
      if (p == null
          || p.type() == null
          || p.defaultValue() == null
          || p.defaultValueType() == null) {
        throw new InvalidArgumentException("a parameter of macro '" + name + "' is incomplete");
      }
      Names.nonEmpty("macro parameter", p.name());
    }
  }
}
