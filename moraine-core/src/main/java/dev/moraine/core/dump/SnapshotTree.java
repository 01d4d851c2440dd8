package dev.moraine.core.dump;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.MacroInfo;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.TagEntry;
import dev.moraine.core.catalog.model.ViewInfo;
import java.util.Comparator;
import java.util.List;

/** One element of the dump's {@code snapshots} array (docs/dump-format.md §3 to §5). */
final class SnapshotTree {
  private SnapshotTree() {}

  static Obj of(CatalogSnapshot s) {
    return Obj.of()
        .with(
            "macros",
            s.macros().stream()
                .sorted(Comparator.comparing(MacroInfo::macroId, Long::compareUnsigned))
                .map(SnapshotTree::macro)
                .toList())
        .with("record", record(s.info()))
        .with(
            "schemas",
            s.schemas().stream()
                .sorted(Comparator.comparing(SchemaInfo::schemaId, Long::compareUnsigned))
                .map(schema -> schema(s, schema))
                .toList())
        .with(
            "tables",
            s.tables().stream()
                .sorted(Comparator.comparing(TableInfo::tableId, Long::compareUnsigned))
                .map(table -> TableTree.of(s, table))
                .toList())
        .with(
            "views",
            s.views().stream()
                .sorted(Comparator.comparing(ViewInfo::viewId, Long::compareUnsigned))
                .map(view -> view(s, view))
                .toList());
  }

  static Obj record(SnapshotInfo r) {
    return Obj.of()
        .with("author", Obj.orNull(r.author()))
        .with("changes_made", r.changesMade())
        .with("commit_extra_info", Obj.orNull(r.commitExtraInfo()))
        .with("commit_message", Obj.orNull(r.commitMessage()))
        .with("deleted_data_file_ids", r.deletedDataFileIds().stream().map(Obj::unsigned).toList())
        .with("next_catalog_id", Obj.unsigned(r.nextCatalogId()))
        .with("next_file_id", Obj.unsigned(r.nextFileId()))
        .with(
            "schema_changed_table_ids",
            r.schemaChangedTableIds().stream().map(Obj::unsigned).toList())
        .with("schema_version", Obj.unsigned(r.schemaVersion()))
        .with("snapshot_id", Obj.unsigned(r.snapshotId()))
        .with("snapshot_time_micros", r.timeMicros());
  }

  /** The tags of a schema, table or view live at the snapshot, by key (UTF-8 bytes) then begin. */
  static List<Obj> tags(CatalogSnapshot s, long objectId) {
    return tagList(s.tags(objectId), s.snapshotId());
  }

  /**
   * Tag entries live at snapshot {@code at} ({@code begin_snapshot <= at}, no end or an end above
   * it), by key (UTF-8 bytes) then begin.
   */
  static List<Obj> tagList(List<TagEntry> entries, long at) {
    return entries.stream()
        .filter(
            t ->
                Long.compareUnsigned(t.beginSnapshot(), at) <= 0
                    && (t.endSnapshot().isEmpty()
                        || Long.compareUnsigned(t.endSnapshot().getAsLong(), at) > 0))
        .sorted(
            Comparator.comparing(TagEntry::key, LakeState::compareUtf8)
                .thenComparing(TagEntry::beginSnapshot, Long::compareUnsigned))
        .map(
            t ->
                Obj.of()
                    .with("begin_snapshot", Obj.unsigned(t.beginSnapshot()))
                    .with("key", t.key())
                    .with("value", t.value()))
        .toList();
  }

  private static Obj schema(CatalogSnapshot s, SchemaInfo schema) {
    return Obj.of()
        .with("id", Obj.unsigned(schema.schemaId()))
        .with("name", schema.name())
        .with("tags", tags(s, schema.schemaId()));
  }

  private static Obj view(CatalogSnapshot s, ViewInfo view) {
    return Obj.of()
        .with("dialect", view.dialect())
        .with("id", Obj.unsigned(view.viewId()))
        .with("name", view.name())
        .with("schema_id", Obj.unsigned(view.schemaId()))
        .with("sql", view.sql())
        .with("tags", tags(s, view.viewId()));
  }

  private static Obj macro(MacroInfo macro) {
    return Obj.of()
        .with("id", Obj.unsigned(macro.macroId()))
        .with(
            "implementations",
            macro.implementations().stream()
                .map(
                    i ->
                        Obj.of()
                            .with("dialect", i.dialect())
                            .with("macro_type", i.macroType())
                            .with(
                                "parameters",
                                i.parameters().stream()
                                    .map(
                                        p ->
                                            Obj.of()
                                                .with("default_value", Obj.orNull(p.defaultValue()))
                                                .with("default_value_type", p.defaultValueType())
                                                .with("name", p.name())
                                                .with("parameter_type", p.type()))
                                    .toList())
                            .with("sql", i.sql()))
                .toList())
        .with("name", macro.name())
        .with("schema_id", Obj.unsigned(macro.schemaId()));
  }
}
