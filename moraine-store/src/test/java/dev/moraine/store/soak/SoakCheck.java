package dev.moraine.store.soak;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.SnapshotInfo;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.store.soak.SoakLake.Tables;
import dev.moraine.store.soak.SoakLake.Token;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a soak lake must hold after a writer was killed and the lake reopened: every acknowledged
 * commit whole, no commit partial, snapshot ids without a gap, counters that never go back, dense
 * row ids, and nothing a previous reopen saw changed or gone. {@link #check} lists every problem it
 * finds, in words that name the snapshot, the token and what is missing; an empty list means the
 * lake is sound.
 */
final class SoakCheck {
  private SoakCheck() {}

  /** One acknowledgement line of the writer: {@code ack <snapshot> <token>}. */
  record Ack(long snapshotId, Token token) {
    private static final Pattern LINE = Pattern.compile("ack (\\d+) (\\S+)");

    /** The acknowledgement in {@code line}, or null if the line is not one. */
    static Ack parse(String line) {
      Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        return null;
      }
      Token token = Token.parse(m.group(2));
      return token == null ? null : new Ack(Long.parseLong(m.group(1)), token);
    }

    String line() {
      return "ack " + snapshotId + " " + token.text();
    }
  }

  /** The snapshot log the check read (the next check's {@code previous}) and what was wrong. */
  record Result(List<SnapshotInfo> log, List<String> problems) {
    long head() {
      return log.get(log.size() - 1).snapshotId();
    }
  }

  /** Where one token landed: its snapshot and the shape its commit information names. */
  private record Landed(long snapshotId, String shape) {}

  /** A committer thread of one cycle. */
  private record Committer(int cycle, int thread) {}

  /**
   * Checks the lake {@code catalog} has open.
   *
   * @param previous the snapshot log the previous check read; every entry of it must still be there
   *     unchanged
   * @param cycle the cycle whose writer was killed last: every snapshot added since {@code
   *     previous} must be one of its commits
   * @param acks every acknowledgement read from every writer so far
   */
  static Result check(
      Catalog catalog, Tables tables, List<SnapshotInfo> previous, int cycle, List<Ack> acks) {
    List<String> problems = new ArrayList<>();
    CatalogSnapshot head = catalog.snapshot();
    List<SnapshotInfo> log = head.snapshotLog();
    checkLog(head, log, previous, problems);
    Map<Token, Landed> landed = checkSnapshots(log, previous.size(), cycle, tables, problems);
    checkFiles(head, log, tables, problems);
    Set<Token> acknowledged = checkAcks(acks, log, problems);
    checkCommitters(landed, acknowledged, problems);
    return new Result(log, problems);
  }

  /** Ids from 0 without a gap, times and counters never going back, earlier entries unchanged. */
  private static void checkLog(
      CatalogSnapshot head,
      List<SnapshotInfo> log,
      List<SnapshotInfo> previous,
      List<String> problems) {
    if (log.isEmpty() || log.get(log.size() - 1).snapshotId() != head.snapshotId()) {
      problems.add("the snapshot log does not end at the head " + head.snapshotId());
    }
    for (int i = 0; i < log.size(); i++) {
      SnapshotInfo s = log.get(i);
      if (s.snapshotId() != i) {
        problems.add("snapshot ids have a gap: entry " + i + " of the log is snapshot " + s);
        return;
      }
      if (i == 0) {
        continue;
      }
      SnapshotInfo before = log.get(i - 1);
      if (s.timeMicros() <= before.timeMicros()) {
        problems.add("the time of snapshot " + i + " is not after that of snapshot " + (i - 1));
      }
      neverBack("next_catalog_id", i, before.nextCatalogId(), s.nextCatalogId(), problems);
      neverBack("next_file_id", i, before.nextFileId(), s.nextFileId(), problems);
    }
    if (log.size() < previous.size()) {
      problems.add(
          "the head went back from snapshot "
              + (previous.size() - 1)
              + ", which the previous reopen found, to "
              + (log.size() - 1));
    }
    for (int i = 0; i < Math.min(log.size(), previous.size()); i++) {
      if (!log.get(i).equals(previous.get(i))) {
        problems.add(
            "snapshot "
                + i
                + " changed since the previous reopen: was "
                + previous.get(i)
                + ", is "
                + log.get(i));
      }
    }
  }

  private static void neverBack(
      String counter, int snapshot, long before, long now, List<String> problems) {
    if (now < before) {
      problems.add(counter + " went back at snapshot " + snapshot + ": " + before + " -> " + now);
    }
  }

  /**
   * Every snapshot after the setup is a soak commit of a token landed once, with the counters and
   * {@code changes_made} of two registered files; returns where each token landed.
   */
  private static Map<Token, Landed> checkSnapshots(
      List<SnapshotInfo> log, int checkedBefore, int cycle, Tables tables, List<String> problems) {
    String changes =
        "inserted_into_table:" + tables.events() + ",inserted_into_table:" + tables.ledger();
    Map<Token, Landed> landed = new HashMap<>();
    for (int i = (int) SoakLake.SETUP_HEAD + 1; i < log.size(); i++) {
      SnapshotInfo s = log.get(i);
      Token token = s.commitMessage().map(Token::parse).orElse(null);
      String shape = s.commitExtraInfo().orElse("");
      if (token == null
          || !s.author().equals(Optional.of(SoakLake.AUTHOR))
          || !(shape.equals(SoakLake.SINGLE) || SoakLake.parseGroup(shape) != null)) {
        problems.add("snapshot " + i + " is not a whole soak commit: its commit info is " + s);
        continue;
      }
      Landed before = landed.put(token, new Landed(i, shape));
      if (before != null) {
        problems.add(
            token.text() + " landed twice: at snapshot " + before.snapshotId() + " and " + i);
      }
      if (i >= checkedBefore && token.cycle() != cycle) {
        problems.add(
            "snapshot "
                + i
                + ", new since the previous reopen, holds "
                + token.text()
                + " of cycle "
                + token.cycle()
                + ", not of cycle "
                + cycle);
      }
      if (!changes.equals(s.changesMade())) {
        problems.add(
            "snapshot " + i + " (" + token.text() + ") records changes_made " + s.changesMade());
      }
      long files = s.nextFileId() - log.get(i - 1).nextFileId();
      if (files != 2) {
        problems.add(
            "next_file_id advanced by "
                + files
                + " at snapshot "
                + i
                + " ("
                + token.text()
                + "), which registers 2 files");
      }
    }
    return landed;
  }

  /**
   * Each soak snapshot's two files present with the token's paths, record counts and the file ids
   * its premise handed out; no file begun anywhere else; row ids dense in both tables, in snapshot
   * order, up to the tables' row-id counters.
   */
  private static void checkFiles(
      CatalogSnapshot head, List<SnapshotInfo> log, Tables tables, List<String> problems) {
    List<DataFileInfo> events = head.dataFiles(tables.events());
    List<DataFileInfo> ledger = head.dataFiles(tables.ledger());
    Map<Long, List<DataFileInfo>> eventsAt = byBeginSnapshot(events);
    Map<Long, List<DataFileInfo>> ledgerAt = byBeginSnapshot(ledger);
    Set<Long> soakSnapshots = new HashSet<>();
    for (int i = (int) SoakLake.SETUP_HEAD + 1; i < log.size(); i++) {
      SnapshotInfo s = log.get(i);
      Token token = s.commitMessage().map(Token::parse).orElse(null);
      if (token == null) {
        continue;
      }
      soakSnapshots.add((long) i);
      long firstFileId = log.get(i - 1).nextFileId();
      String what = "snapshot " + i + " (" + token.text() + ")";
      checkFile(
          what,
          SoakLake.EVENTS,
          eventsAt.getOrDefault((long) i, List.of()),
          token.eventsPath(),
          token.eventRecords(),
          firstFileId,
          problems);
      checkFile(
          what,
          SoakLake.LEDGER,
          ledgerAt.getOrDefault((long) i, List.of()),
          token.ledgerPath(),
          1,
          firstFileId + 1,
          problems);
    }
    for (DataFileInfo f : concat(events, ledger)) {
      if (!soakSnapshots.contains(f.beginSnapshot())) {
        problems.add(
            "file "
                + f.path()
                + " begins at snapshot "
                + f.beginSnapshot()
                + ", which holds no soak commit");
      }
    }
    checkRowIds(SoakLake.EVENTS, events, head.tableStats(tables.events()), problems);
    checkRowIds(SoakLake.LEDGER, ledger, head.tableStats(tables.ledger()), problems);
  }

  private static void checkFile(
      String what,
      String table,
      List<DataFileInfo> files,
      String path,
      long records,
      long fileId,
      List<String> problems) {
    if (files.size() != 1) {
      problems.add(
          what
              + " is partial: it holds "
              + files.size()
              + " files of "
              + table
              + " (one expected): "
              + files);
      return;
    }
    DataFileInfo f = files.get(0);
    if (!f.path().equals(path) || f.recordCount() != records || f.dataFileId() != fileId) {
      problems.add(
          what
              + " registered "
              + f
              + " in "
              + table
              + "; expected "
              + path
              + " of "
              + records
              + " rows with file id "
              + fileId);
    }
  }

  private static void checkRowIds(
      String table, List<DataFileInfo> files, Optional<TableStats> stats, List<String> problems) {
    List<DataFileInfo> ordered = new ArrayList<>(files);
    ordered.sort(
        Comparator.comparingLong(DataFileInfo::beginSnapshot)
            .thenComparingLong(DataFileInfo::dataFileId));
    long next = 0;
    for (DataFileInfo f : ordered) {
      if (f.rowIdStart().isEmpty() || f.rowIdStart().getAsLong() != next) {
        problems.add(
            "row ids of "
                + table
                + " are not dense: "
                + f.path()
                + " (snapshot "
                + f.beginSnapshot()
                + ") starts at "
                + f.rowIdStart()
                + ", the files before it end at "
                + next);
        return;
      }
      next += f.recordCount();
    }
    if (stats.isEmpty()) {
      if (!files.isEmpty()) {
        problems.add(table + " holds files but no table statistics");
      }
    } else if (stats.get().nextRowId() != next || stats.get().recordCount() != next) {
      problems.add(
          table + "'s statistics " + stats.get() + " disagree with its files, which hold " + next);
    }
  }

  /** Each acknowledgement read once, and its snapshot there holding its token. */
  private static Set<Token> checkAcks(
      List<Ack> acks, List<SnapshotInfo> log, List<String> problems) {
    Set<Token> acknowledged = new HashSet<>();
    for (Ack ack : acks) {
      if (!acknowledged.add(ack.token())) {
        problems.add(ack.token().text() + " was acknowledged twice");
      }
      if (ack.snapshotId() >= log.size()) {
        problems.add(
            "acknowledged commit "
                + ack.token().text()
                + " (snapshot "
                + ack.snapshotId()
                + ") is missing: the head is snapshot "
                + (log.size() - 1));
        continue;
      }
      Optional<String> holds = log.get((int) ack.snapshotId()).commitMessage();
      if (!holds.equals(Optional.of(ack.token().text()))) {
        problems.add(
            "acknowledged commit "
                + ack.token().text()
                + " is missing: its snapshot "
                + ack.snapshotId()
                + " holds "
                + holds.orElse("no commit message"));
      }
    }
    return acknowledged;
  }

  /**
   * Per committer thread: its sequence numbers landed from 0 without a gap, in snapshot order (a
   * thread starts a commit only once its previous one returned, so a gap is a lost commit that was
   * acknowledged to the thread); a group's members all there, in consecutive snapshots; and every
   * landed commit but the thread's last request acknowledged (the harness read every line the
   * writer printed before it died).
   */
  private static void checkCommitters(
      Map<Token, Landed> landed, Set<Token> acknowledged, List<String> problems) {
    Map<Committer, NavigableMap<Integer, Landed>> byThread = new HashMap<>();
    landed.forEach(
        (token, where) ->
            byThread
                .computeIfAbsent(new Committer(token.cycle(), token.thread()), k -> new TreeMap<>())
                .put(token.seq(), where));
    for (var entry : byThread.entrySet()) {
      Committer c = entry.getKey();
      NavigableMap<Integer, Landed> seqs = entry.getValue();
      String name = "cycle " + c.cycle() + " committer " + c.thread();
      int expected = 0;
      long lastSnapshot = -1;
      for (var s : seqs.entrySet()) {
        if (s.getKey() != expected) {
          problems.add(
              name
                  + ": commit "
                  + new Token(c.cycle(), c.thread(), expected).text()
                  + " is missing, though the thread went on to seq "
                  + s.getKey()
                  + ", which landed at snapshot "
                  + s.getValue().snapshotId());
          break;
        }
        if (s.getValue().snapshotId() <= lastSnapshot) {
          problems.add(name + ": seq " + s.getKey() + " landed before the seq before it");
        }
        lastSnapshot = s.getValue().snapshotId();
        expected++;
      }
      checkGroups(name, seqs, problems);
      int last = seqs.lastKey();
      int[] group = SoakLake.parseGroup(seqs.get(last).shape());
      int lastRequest = group == null ? last : group[0];
      for (int seq : seqs.headMap(lastRequest, false).keySet()) {
        Token token = new Token(c.cycle(), c.thread(), seq);
        if (!acknowledged.contains(token)) {
          problems.add(
              name
                  + ": "
                  + token.text()
                  + " landed and its thread went on, but no acknowledgement of it was read");
        }
      }
    }
  }

  /** Every member of a landed group there, with the group's shape, in consecutive snapshots. */
  private static void checkGroups(
      String name, NavigableMap<Integer, Landed> seqs, List<String> problems) {
    for (var s : seqs.entrySet()) {
      int[] group = SoakLake.parseGroup(s.getValue().shape());
      if (group == null) {
        continue;
      }
      int first = group[0];
      int size = group[1];
      if (s.getKey() < first || s.getKey() >= first + size) {
        problems.add(name + ": seq " + s.getKey() + " names the group " + s.getValue().shape());
        continue;
      }
      Landed head = seqs.get(first);
      for (int m = first; m < first + size; m++) {
        Landed member = seqs.get(m);
        if (member == null
            || head == null
            || !member.shape().equals(s.getValue().shape())
            || member.snapshotId() != head.snapshotId() + (m - first)) {
          problems.add(
              name
                  + ": the group "
                  + s.getValue().shape()
                  + " landed partially or out of order: seq "
                  + m
                  + " is "
                  + member
                  + ", its first member "
                  + head);
          break;
        }
      }
    }
  }

  private static Map<Long, List<DataFileInfo>> byBeginSnapshot(List<DataFileInfo> files) {
    Map<Long, List<DataFileInfo>> by = new HashMap<>();
    for (DataFileInfo f : files) {
      by.computeIfAbsent(f.beginSnapshot(), k -> new ArrayList<>()).add(f);
    }
    return by;
  }

  private static List<DataFileInfo> concat(List<DataFileInfo> a, List<DataFileInfo> b) {
    List<DataFileInfo> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
