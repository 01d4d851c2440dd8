package dev.moraine.core.dump;

import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.ScheduledDeletion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** The unversioned, lake-wide parts of the dump: options (§8) and scheduled deletions (§9). */
final class LakeState {
  private LakeState() {}

  private record Scoped(long kind, long id, String key, Object json) {}

  static List<Object> options(CatalogSnapshot snapshot) {
    List<Scoped> all = new ArrayList<>();
    for (Map.Entry<OptionScope, Map<String, String>> scope : snapshot.allOptions().entrySet()) {
      long kind;
      long id;
      String name;
      if (scope.getKey() instanceof OptionScope.Schema s) {
        kind = 1;
        id = s.schemaId();
        name = "schema";
      } else if (scope.getKey() instanceof OptionScope.Table t) {
        kind = 2;
        id = t.tableId();
        name = "table";
      } else {
        kind = 0;
        id = 0;
        name = null;
      }
      for (Map.Entry<String, String> option : scope.getValue().entrySet()) {
        Obj json =
            Obj.of()
                .with("key", option.getKey())
                .with("scope", name)
                .with("scope_id", name == null ? null : Obj.unsigned(id))
                .with("value", option.getValue());
        all.add(new Scoped(kind, id, option.getKey(), json));
      }
    }
    all.sort(
        Comparator.comparing(Scoped::kind, Long::compareUnsigned)
            .thenComparing(Scoped::id, Long::compareUnsigned)
            .thenComparing(Scoped::key, LakeState::compareUtf8));
    return all.stream().map(Scoped::json).toList();
  }

  static List<Object> scheduledDeletions(CatalogSnapshot snapshot) {
    return snapshot.scheduledDeletions().stream()
        .sorted(Comparator.comparing(ScheduledDeletion::dataFileId, Long::compareUnsigned))
        .map(
            d ->
                (Object)
                    Obj.of()
                        .with("data_file_id", Obj.unsigned(d.dataFileId()))
                        .with("path", d.path())
                        .with("path_is_relative", d.pathIsRelative())
                        .with("schedule_start_micros", d.scheduleStartMicros()))
        .toList();
  }

  /** Strings in the order of their UTF-8 bytes (code points), not of their UTF-16 units. */
  static int compareUtf8(String a, String b) {
    return Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
