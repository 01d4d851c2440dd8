package dev.moraine.bench;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One batch of k commits handed in together ({@code Catalog.commitGroup}), each registering one
 * small data file into a table of its own, on the in-memory store with flush spacing zero and
 * publication off: the time of the whole batch (staging of every member, one write, one flush), in
 * microseconds. Divided by k, what a member of a batch of k costs; compare {@code members=1}.
 * {@link GroupCpuBench} measures the same batches' CPU and allocation.
 *
 * <p>The benchmark checks that every member landed with its own snapshot id, and throws if not.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class GroupMemberBenchmark {
  @Param({"1", "8", "64"})
  public int members;

  private BenchStore bench;
  private Catalog catalog;
  private long[] tables;
  private long files;

  @Setup(Level.Trial)
  public void open() {
    bench = BenchStore.open(BenchStore.Kind.MEMORY);
    catalog =
        Catalog.open(
            bench.store(),
            CatalogOptions.defaults()
                .withFlushSpacing(Duration.ZERO)
                .withCheckpointPublication(false));
    tables = new long[members];
    List<CommitBody> create = new ArrayList<>();
    for (int i = 0; i < members; i++) {
      int k = i;
      create.add(tx -> tables[k] = tx.createTable(0, "t" + k, List.of(ColumnDef.of("x", "int64"))));
    }
    catalog.commitGroup(create);
  }

  @TearDown(Level.Trial)
  public void close() {
    catalog.close();
    bench.close();
  }

  @Benchmark
  public long batch() {
    List<CommitBody> group = new ArrayList<>(members);
    for (long table : tables) {
      String path = "f" + (files++) + ".parquet";
      group.add(tx -> tx.registerDataFile(table, NewDataFile.parquet(path, 10, 900, 300)));
    }
    List<Long> ids = catalog.commitGroup(group);
    if (ids.size() != members || ids.get(members - 1) - ids.get(0) != members - 1) {
      throw new IllegalStateException("a batch of " + members + " landed as " + ids);
    }
    return ids.get(members - 1);
  }
}
