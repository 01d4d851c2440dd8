package dev.moraine.cli;

import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.dump.CompactJson;
import dev.moraine.core.keyspace.KeyspaceCensus;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** How a lake's keyspace divides, by subspace and kind of record; read-only. */
@Command(
    name = "census",
    description =
        "Print how a lake's store divides: keys and bytes per subspace and per kind of record,"
            + " the snapshots retained, the ended versions an expiry can reclaim and the files"
            + " awaiting cleanup; read-only.")
final class CensusCommand implements Callable<Integer> {
  @Mixin LakeOptions where;

  @Option(names = "--json", description = "Print one line of JSON instead of text.")
  boolean json;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    KeyspaceCensus census;
    Head head;
    try (ReadOnlyLake opened = where.open()) {
      head = opened.catalog().head();
      census = KeyspaceCensus.of(opened.reader());
    }
    long snapshots = keys(census.subspace("snapshot"));
    long ended = keys(census.subspace("history"));
    KeyspaceCensus.Part current = census.subspace("current");
    long scheduled = current == null ? 0 : keys(current.kind("scheduled_deletion"));
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("head", Inspect.unsigned(head.snapshotId()));
      doc.put("batch_seq", Inspect.unsigned(head.batchSeq()));
      doc.put("keys", census.keys());
      doc.put("bytes", census.bytes());
      doc.put("snapshots_retained", snapshots);
      doc.put("ended_versions", ended);
      doc.put("files_scheduled_for_deletion", scheduled);
      List<Object> parts = new ArrayList<>();
      for (KeyspaceCensus.Part p : census.parts()) {
        Map<String, Object> part = row(p);
        List<Object> kinds = new ArrayList<>();
        for (KeyspaceCensus.Part k : p.kinds()) {
          kinds.add(row(k));
        }
        part.put("kinds", kinds);
        parts.add(part);
      }
      doc.put("subspaces", parts);
      out.println(CompactJson.toText(doc));
    } else {
      out.println(
          "census at snapshot "
              + Long.toUnsignedString(head.snapshotId())
              + " (batch "
              + Long.toUnsignedString(head.batchSeq())
              + "): "
              + census.keys()
              + " keys, "
              + census.bytes()
              + " bytes");
      out.println(String.format(Locale.ROOT, "%-28s %12s %14s %7s", "", "keys", "bytes", "share"));
      for (KeyspaceCensus.Part p : census.parts()) {
        out.println(line(p.name(), p, census.bytes()));
        for (KeyspaceCensus.Part k : p.kinds()) {
          out.println(line("  " + k.name(), k, census.bytes()));
        }
      }
      out.println(
          snapshots
              + " snapshots retained; "
              + ended
              + " ended versions kept for time travel (an expiry reclaims those only expired"
              + " snapshots see); "
              + scheduled
              + " files scheduled for deletion (awaiting cleanup)");
    }
    out.flush();
    return 0;
  }

  private static long keys(KeyspaceCensus.Part p) {
    return p == null ? 0 : p.keys();
  }

  private static Map<String, Object> row(KeyspaceCensus.Part p) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("name", p.name());
    row.put("keys", p.keys());
    row.put("bytes", p.bytes());
    return row;
  }

  private static String line(String name, KeyspaceCensus.Part p, long total) {
    double share = total == 0 ? 0 : 100.0 * p.bytes() / total;
    return String.format(Locale.ROOT, "%-28s %12d %14d %6.1f%%", name, p.keys(), p.bytes(), share);
  }
}
