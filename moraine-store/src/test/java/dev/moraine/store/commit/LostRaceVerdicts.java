package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.ducklake.changes.ChangeEntry;
import dev.moraine.ducklake.changes.ChangeKind;
import dev.moraine.ducklake.changes.ChangeSet;
import dev.moraine.ducklake.changes.ChangesMade;
import dev.moraine.ducklake.conflict.ConflictCause;
import dev.moraine.ducklake.conflict.ConflictMatrix;
import dev.moraine.ducklake.conflict.ConflictRule;
import dev.moraine.ducklake.conflict.DeleteTargets;
import dev.moraine.ducklake.conflict.ProvisionalIds;
import dev.moraine.ducklake.conflict.SchemaIdentities;
import dev.moraine.store.commit.CatalogModel.Intent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every lost race of {@link ConcurrentVerbModelPropertiesTest}, of every verb, judged again by
 * {@code ConflictMatrix} against the change sets of the snapshots the loser lost to, and held
 * against what the commit runner did (RFC 0004 §5).
 *
 * <p>Which snapshots a lost attempt was judged against is pinned from both ends. {@link
 * RecordingKvStore} keeps, per thread, the store as it was when the thread's transaction commit was
 * refused; its head is the lowest head the runner can have judged against (the runner reads the
 * intervening snapshots after the refusal, so it may see more, never fewer). The re-run's premise
 * is the highest. The matrix only finds more conflicts in more changes, so a race the runner judged
 * benign must be benign against the snapshots up to that first head. For a true conflict the
 * exception names the snapshots it lost to; they must follow the premise without a gap, reach at
 * least that first head, and the matrix must find the conflict among exactly them.
 *
 * <p>This commit's own changes come from the intent and the model at its premise, as RFC 0004 §3
 * says each verb records them; names that collide in two creations are left to the re-run (it
 * refuses with AlreadyExists), except schema creations, which conflict (RFC 0004 §5).
 */
final class LostRaceVerdicts {
  /**
   * One lost race: the attempt's premise and intent, the head when its submission was refused, and
   * either the premise of its re-run (benign) or the snapshots its conflict named.
   */
  record Race(long premise, Intent intent, long refusedAt, long rerunAt, List<Long> conflictWith) {}

  private static final Pattern NAMED = Pattern.compile("snapshot\\(s\\) \\[([0-9, ]*)\\]");

  // Appended to by the committing threads; read after they are done.
  private final List<Race> races = Collections.synchronizedList(new ArrayList<>());

  /** The head snapshot id when this thread's last transaction commit was refused, or null. */
  static Long refusedHead(RecordingKvStore store) {
    RecordingKvStore.Landed refused = store.takeRefusedOnThisThread();
    if (refused == null) {
      return null;
    }
    byte[] head = refused.before().get(KeyCodec.encode(SysKey.HEAD));
    return ValueCodec.decode(SysKey.HEAD, head, HeadValue.class).getSnapshotId();
  }

  /** A run that staged a commit, lost, and was re-run on {@code rerunAt}. */
  void benign(long premise, Intent intent, Long refusedAt, long rerunAt) {
    assertNotNull(
        refusedAt, intent + " at " + premise + " was re-run without a refused submission");
    races.add(new Race(premise, intent, refusedAt, rerunAt, null));
  }

  /** A run that staged a commit and ended in a conflict with {@code message}. */
  void conflict(long premise, Intent intent, Long refusedAt, String message) {
    assertNotNull(
        refusedAt, intent + " at " + premise + " conflicted without a refused submission");
    Matcher m = NAMED.matcher(message);
    assertTrue(m.find(), "the conflict names the snapshots it lost to: " + message);
    List<Long> named = new ArrayList<>();
    for (String id : m.group(1).split(",\\s*")) {
      named.add(Long.parseLong(id));
    }
    races.add(new Race(premise, intent, refusedAt, -1, named));
  }

  /** Judges every race against the snapshots it lost to, with the model of each premise. */
  void check(List<CatalogModel> bySnapshot, ReadOnlyCatalog reader) {
    for (Race race : races) {
      CatalogModel premise = bySnapshot.get((int) race.premise());
      ChangeSet mine = mine(race.intent(), premise);
      if (mine == null) {
        continue;
      }
      List<Long> against = new ArrayList<>();
      if (race.conflictWith() == null) {
        assertTrue(
            race.premise() <= race.refusedAt() && race.refusedAt() <= race.rerunAt(),
            race + ": the head at the refusal lies between the premise and the re-run's");
        for (long s = race.premise() + 1; s <= race.refusedAt(); s++) {
          against.add(s);
        }
      } else {
        against.addAll(race.conflictWith());
        assertTrue(!against.isEmpty(), race + ": a conflict names what it lost to");
        for (int k = 0; k < against.size(); k++) {
          assertEquals(race.premise() + 1 + k, against.get(k), race + ": snapshots without a gap");
        }
        assertTrue(
            against.get(against.size() - 1) >= race.refusedAt(),
            race + ": judged at least up to the head of its refusal");
      }
      List<ConflictCause> causes = causes(race.intent(), mine, premise, against, reader);
      String kind = race.intent().getClass().getSimpleName();
      net.jqwik.api.statistics.Statistics.label("lost races")
          .collect(race.conflictWith() == null ? "benign" : "conflict");
      net.jqwik.api.statistics.Statistics.label("lost races by verb")
          .collect(kind + (race.conflictWith() == null ? " benign" : " conflict"));
      assertEquals(
          race.conflictWith() != null,
          !causes.isEmpty(),
          race + " against snapshots " + against + ": the matrix finds " + causes);
    }
  }

  private static List<ConflictCause> causes(
      Intent intent, ChangeSet mine, CatalogModel premise, List<Long> against, ReadOnlyCatalog r) {
    List<ChangeSet> sets = new ArrayList<>();
    Set<Long> theirFiles = new TreeSet<>();
    boolean known = true;
    for (long s : against) {
      SnapshotInfo info = r.snapshotAt(s).info();
      ChangeSet set = ChangesMade.parse(info.changesMade());
      sets.add(set);
      if (set.ofKind(ChangeKind.DELETED_FROM_TABLE).size() > 0) {
        // A delete that names no data files may have touched any file of its table.
        known &= !info.deletedDataFileIds().isEmpty();
        theirFiles.addAll(info.deletedDataFileIds());
      }
    }
    DeleteTargets targets =
        known ? DeleteTargets.of(deletedFiles(intent), theirFiles) : DeleteTargets.unknown();
    return ConflictMatrix.check(
            mine,
            ChangeSet.unionOf(sets),
            targets,
            SchemaIdentities.of(premise.schemas()),
            ProvisionalIds.from(premise.nextCatalogId()))
        .causes()
        .stream()
        .filter(
            c -> c.rule() != ConflictRule.SAME_NAME || c.mine().kind() == ChangeKind.CREATED_SCHEMA)
        .toList();
  }

  /** The data files this commit deletes from (its delete files' targets). */
  private static Set<Long> deletedFiles(Intent intent) {
    if (intent instanceof Intent.RegisterDelete i) {
      return Set.of(i.dataFileId());
    }
    if (intent instanceof Intent.Flush i) {
      return i.fileDeletes();
    }
    return Set.of();
  }

  /**
   * What the intent's commit records in {@code changes_made} (RFC 0004 §3), given the premise; null
   * for an options-only commit, which the runner re-runs without judging.
   */
  static ChangeSet mine(Intent intent, CatalogModel premise) {
    ChangeSet inline = InlineRaceVerdicts.mine(intent);
    if (inline != null) {
      return inline;
    }
    if (intent instanceof Intent.SetOption) {
      return null;
    }
    List<ChangeEntry> entries = new ArrayList<>();
    if (intent instanceof Intent.CreateSchema i) {
      entries.add(new ChangeEntry.BySchemaName(i.name()));
    } else if (intent instanceof Intent.DropSchema i) {
      entries.add(new ChangeEntry.ById(ChangeKind.DROPPED_SCHEMA, i.schemaId()));
    } else if (intent instanceof Intent.CreateTable i) {
      entries.add(qualified(ChangeKind.CREATED_TABLE, premise, i.schemaId(), i.name()));
    } else if (intent instanceof Intent.RenameTable i) {
      long schema = premise.tables().get(i.tableId()).schemaId();
      entries.add(qualified(ChangeKind.CREATED_TABLE, premise, schema, i.name()));
    } else if (intent instanceof Intent.MoveTable i) {
      String name = premise.tables().get(i.tableId()).name();
      entries.add(qualified(ChangeKind.CREATED_TABLE, premise, i.schemaId(), name));
    } else if (intent instanceof Intent.DropTable i) {
      entries.add(new ChangeEntry.ById(ChangeKind.DROPPED_TABLE, i.tableId()));
    } else if (intent instanceof Intent.CreateView i) {
      entries.add(qualified(ChangeKind.CREATED_VIEW, premise, i.schemaId(), i.name()));
    } else if (intent instanceof Intent.RenameView i) {
      String view = premise.views().get(i.viewId());
      long schema = Long.parseLong(view.substring(0, view.indexOf('.')));
      entries.add(qualified(ChangeKind.CREATED_VIEW, premise, schema, i.name()));
    } else if (intent instanceof Intent.AlterView i) {
      entries.add(new ChangeEntry.ById(ChangeKind.ALTERED_VIEW, i.viewId()));
    } else if (intent instanceof Intent.DropView i) {
      entries.add(new ChangeEntry.ById(ChangeKind.DROPPED_VIEW, i.viewId()));
    } else if (intent instanceof Intent.CreateMacro i) {
      ChangeKind kind =
          i.table() ? ChangeKind.CREATED_TABLE_MACRO : ChangeKind.CREATED_SCALAR_MACRO;
      entries.add(qualified(kind, premise, i.schemaId(), i.name()));
    } else if (intent instanceof Intent.DropMacro i) {
      boolean table = premise.macros().get(i.macroId()).endsWith(".table");
      ChangeKind kind = table ? ChangeKind.DROPPED_TABLE_MACRO : ChangeKind.DROPPED_SCALAR_MACRO;
      entries.add(new ChangeEntry.ById(kind, i.macroId()));
    } else if (intent instanceof Intent.RegisterFile i) {
      entries.add(new ChangeEntry.ById(ChangeKind.INSERTED_INTO_TABLE, i.tableId()));
    } else if (intent instanceof Intent.RegisterByName i) {
      entries.add(new ChangeEntry.ById(ChangeKind.INSERTED_INTO_TABLE, i.tableId()));
    } else if (intent instanceof Intent.RegisterDelete i) {
      entries.add(new ChangeEntry.ById(ChangeKind.DELETED_FROM_TABLE, i.tableId()));
    } else if (intent instanceof Intent.ExpireDataFile i) {
      entries.add(new ChangeEntry.ById(ChangeKind.MERGE_ADJACENT, i.tableId()));
    } else if (intent instanceof Intent.ExpireDeleteFile i) {
      entries.add(new ChangeEntry.ById(ChangeKind.REWRITE_DELETE, i.tableId()));
    } else if (intent instanceof Intent.Tag i) {
      switch (i.on()) {
        case SCHEMA -> {} // a schema tag records no change kind
        case VIEW -> entries.add(new ChangeEntry.ById(ChangeKind.ALTERED_VIEW, i.objectId()));
        default -> entries.add(new ChangeEntry.ById(ChangeKind.ALTERED_TABLE, i.objectId()));
      }
    } else if (intent instanceof Intent.UpdateStats || intent instanceof Intent.UpdateColumnStats) {
      // Statistics overrides mint a snapshot that records no change kind.
    } else {
      // Every other verb alters its table: columns, partition and sort keys.
      entries.add(
          new ChangeEntry.ById(ChangeKind.ALTERED_TABLE, CatalogModelAlters.tableOf(intent)));
    }
    return ChangeSet.of(entries);
  }

  private static ChangeEntry qualified(
      ChangeKind kind, CatalogModel premise, long schemaId, String name) {
    return new ChangeEntry.ByQualifiedName(kind, premise.schemas().get(schemaId), name);
  }
}
