package dev.moraine.store.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.soak.SoakCheck.Ack;
import dev.moraine.store.soak.SoakLake.Tables;
import dev.moraine.store.soak.SoakLake.Token;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak's check on lakes written in this JVM: a sound lake passes, and each kind of damage the
 * soak looks for after a kill (an acknowledged commit missing, a partial commit or group, a gap in
 * a committer's sequence, a snapshot of the wrong cycle, a history that changed or went back) is
 * reported by name.
 */
class SoakCheckTest {
  @TempDir Path dir;
  private KvStore store;
  private Catalog catalog;
  private Tables tables;
  private final List<Ack> acks = new ArrayList<>();

  @BeforeEach
  void open() {
    tables = SoakLake.create(dir);
    store = SoakLake.provider(dir).openWriter();
    catalog = Catalog.open(store, SoakLake.options(Duration.ZERO));
  }

  @AfterEach
  void close() {
    catalog.close();
    store.close();
  }

  private static Token token(int thread, int seq) {
    return new Token(1, thread, seq);
  }

  private void single(int thread, int seq) {
    Token t = token(thread, seq);
    acks.add(new Ack(catalog.commit(SoakLake.body(tables, t, SoakLake.SINGLE)), t));
  }

  private void group(int thread, int first, int size) {
    List<CommitBody> bodies = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      bodies.add(SoakLake.body(tables, token(thread, first + i), SoakLake.groupShape(first, size)));
    }
    List<Long> ids = catalog.commitGroup(bodies);
    for (int i = 0; i < size; i++) {
      acks.add(new Ack(ids.get(i), token(thread, first + i)));
    }
  }

  private List<String> check(List<SnapshotInfo> previous, int cycle) {
    return SoakCheck.check(catalog, tables, previous, cycle, acks).problems();
  }

  private static void assertNamed(List<String> problems, String... words) {
    assertTrue(
        problems.stream().anyMatch(p -> List.of(words).stream().allMatch(p::contains)),
        "no problem names " + List.of(words) + ": " + problems);
  }

  @Test
  void aSoundLake_passes_withTheLastRequestOfAThreadUnacknowledged() {
    single(0, 0);
    group(0, 1, 3);
    single(1, 0);
    group(1, 1, 2);
    assertEquals(List.of(), check(List.of(), 1));
    // A kill may fall between a commit's return and its line: a thread's last request may land
    // unacknowledged, a group even with some members acknowledged.
    acks.remove(acks.size() - 1);
    assertEquals(List.of(), check(List.of(), 1));
    acks.remove(acks.size() - 1);
    assertEquals(List.of(), check(List.of(), 1));
  }

  @Test
  void anAcknowledgedCommitMissing_isNamed() {
    single(0, 0);
    single(0, 1);
    long head = catalog.head().snapshotId();
    acks.add(new Ack(head + 1, token(0, 2)));
    acks.add(new Ack(head, token(3, 0)));
    List<String> problems = check(List.of(), 1);
    assertNamed(problems, "acknowledged commit soak/1/0/2", "missing", "head is snapshot " + head);
    assertNamed(problems, "acknowledged commit soak/1/3/0", "missing", "holds soak/1/0/1");
    assertEquals(2, problems.size(), problems.toString());
  }

  @Test
  void aCommitMissingWhileItsThreadWentOn_orLandedWithoutItsAcknowledgement_isNamed() {
    single(0, 0);
    single(0, 2);
    single(1, 0);
    single(1, 1);
    acks.removeIf(a -> a.token().equals(token(1, 0)));
    List<String> problems = check(List.of(), 1);
    assertNamed(problems, "commit soak/1/0/1 is missing", "went on to seq 2");
    assertNamed(problems, "soak/1/1/0 landed and its thread went on", "no acknowledgement");
  }

  @Test
  void aPartialCommit_orGroup_isNamed() {
    single(0, 0);
    Token half = token(0, 1);
    catalog.commit(
        tx -> {
          tx.registerDataFile(
              tables.events(),
              NewDataFile.parquet(half.eventsPath(), half.eventRecords(), 1_000, 100));
          tx.setCommitInfo(SoakLake.AUTHOR, half.text(), SoakLake.SINGLE);
        });
    // The first member of a group of two, alone.
    Token lone = token(1, 0);
    catalog.commit(SoakLake.body(tables, lone, SoakLake.groupShape(0, 2)));
    List<String> problems = check(List.of(), 1);
    assertNamed(problems, "soak/1/0/1", "is partial", "0 files of ledger");
    assertNamed(problems, "soak/1/0/1", "next_file_id advanced by 1");
    assertNamed(problems, "cycle 1 committer 1", "group/0/2 landed partially");
  }

  @Test
  void aSnapshotOfAnotherCycle_orAHistoryThatChanged_isNamed() {
    single(0, 0);
    List<SnapshotInfo> log = catalog.snapshot().snapshotLog();
    single(0, 1);
    assertNamed(check(log, 2), "snapshot " + (log.size()) + ", new since", "not of cycle 2");

    List<SnapshotInfo> changed = new ArrayList<>(log);
    SnapshotInfo s = changed.get(log.size() - 1);
    changed.set(
        log.size() - 1,
        new SnapshotInfo(
            s.snapshotId(),
            s.timeMicros(),
            s.schemaVersion(),
            s.nextCatalogId(),
            s.nextFileId(),
            s.changesMade(),
            s.author(),
            Optional.of("soak/1/9/9"),
            s.commitExtraInfo(),
            s.schemaChangedTableIds(),
            s.deletedDataFileIds()));
    assertNamed(
        check(changed, 1), "snapshot " + (log.size() - 1) + " changed since the previous reopen");

    List<SnapshotInfo> longer = new ArrayList<>(catalog.snapshot().snapshotLog());
    longer.add(longer.get(longer.size() - 1));
    assertNamed(check(longer, 1), "the head went back");
  }
}
