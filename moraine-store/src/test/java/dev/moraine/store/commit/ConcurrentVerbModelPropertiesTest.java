package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.CommitConflictException;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.RetryBudgetExhaustedException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.ColumnInfo;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewDeleteFile;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.catalog.model.TableInfo;
import dev.moraine.core.catalog.model.TableStats;
import dev.moraine.core.catalog.model.ViewInfo;
import dev.moraine.core.dump.CatalogDump;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SeedAndTriesFromSystemProperties;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.statistics.Statistics;

/**
 * Random verb sequences from four threads at once on one catalog over a real (in-memory) SlateDB,
 * checked against a simple reference model of the catalog ({@link CatalogModel}: schemas, tables
 * with their columns, views, data files with their row ranges, delete files, statistics, options
 * and the id counters).
 *
 * <p>Each action is one commit. Its closure picks its target from the premise it is given (the k-th
 * live table, say) and records what it meant to do and at which snapshot; a closure that is re-run
 * after a lost race records again, so what is kept is what the landed (or failed) run did. After
 * the threads finish, the landed commits are replayed through the model in snapshot order: each
 * must be one the model accepts, and the catalog at that snapshot (time travel) must read as the
 * model says. Every commit refused with a typed error must be one the model refuses with that error
 * at the snapshot the closure read. Every write that reached the store is checked by {@link
 * CommitDiffOracle} against the full store before and after it, member by member when the write is
 * a batch of several commits.
 *
 * <p>The four threads commit through one catalog, so their commits share batches (a member staged
 * against the members before it in its batch) and never race each other: the lost-race verdicts
 * below judge the races a second writer would cause, which the race tests force ({@link
 * CommitRacesTest}, {@link InlineRacesTest}, {@link GroupCommitTest}, {@link
 * RaceAfterOptionsBatchTest}). What is required here over all tries is that batches of several
 * commits occur.
 *
 * <p>Seeds: {@code -Dmoraine.property.seed} (see {@link SeedAndTriesFromSystemProperties}). Thread
 * interleavings are not replayable by the seed; the action sequences are.
 */
class ConcurrentVerbModelPropertiesTest {
  static final int THREADS = 4;

  /** The intents that must land in some try. */
  static final List<String> LANDING =
      List.of(
          "Flush",
          "InsertInlined",
          "DeleteInline",
          "RegisterByName",
          "MoveTable",
          "AlterView",
          "Tag",
          "RenameColumn",
          "ChangeColumnType",
          "SetColumnDefault",
          "SetColumnNullable",
          "SetPartitionKey",
          "ResetPartitionKey",
          "SetSortKey",
          "ResetSortKey",
          "RenameView",
          "UpdateColumnStats",
          "ExpireDataFile",
          "ExpireDeleteFile",
          "CreateMacro",
          "DropMacro",
          "RegisterFile",
          "RegisterDelete",
          "CreateTable");

  /**
   * The refusals the model must predict in some try. Rarer planted ones (a partition key naming an
   * unknown column or one twice, the statistics of an unknown column) are checked whenever they
   * occur, not required: a run of 60 tries sees them only a few times.
   */
  static final List<String> REFUSED =
      List.of(
          "Flush InvalidArgumentException",
          "DeleteInline NotFoundException",
          "RegisterByName NotFoundException",
          "RegisterByName InvalidArgumentException",
          "InsertInlined InvalidArgumentException",
          "RegisterFile InvalidArgumentException",
          "RegisterByName InvalidArgumentException",
          "RenameColumn AlreadyExistsException",
          "ChangeColumnType InvalidArgumentException",
          "ResetPartitionKey NotFoundException",
          "SetSortKey InvalidArgumentException",
          "ResetSortKey NotFoundException",
          "Tag NotFoundException",
          "RenameView AlreadyExistsException",
          "ExpireDataFile NotFoundException",
          "ExpireDeleteFile NotFoundException");

  /**
   * Operations drawn twice as often: inlining rows, dropping a macro, moving a table, altering,
   * renaming and commenting a view, deleting inline, registering by name, renaming a column,
   * changing a column's type, setting and resetting a sort key, resetting a partition key, expiring
   * a delete file.
   */
  private static final List<Integer> RARE =
      List.of(13, 15, 17, 18, 19, 22, 24, 26, 27, 31, 32, 33, 37, 40);

  /** One action: an operation, which live entity it picks, and a small argument. */
  record Action(int op, int pick, int arg) {}

  @Provide
  Arbitrary<List<List<Action>>> plans() {
    // Every operation alike, and once more the ones that need an earlier action to land (a view,
    // a macro, a key, a delete file), so that each lands in most runs.
    Arbitrary<Integer> op =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(
                ConcurrentAlterChoices.LAST_OP + 1,
                Arbitraries.integers().between(0, ConcurrentAlterChoices.LAST_OP)),
            net.jqwik.api.Tuple.of(RARE.size(), Arbitraries.of(RARE)));
    Arbitrary<Action> action =
        net.jqwik.api.Combinators.combine(
                op, Arbitraries.integers().between(0, 50), Arbitraries.integers().between(0, 7))
            .as(Action::new);
    return action.list().ofMinSize(4).ofMaxSize(22).list().ofSize(THREADS);
  }

  @Property(tries = 60, seed = "-3551071390622358317")
  @AddLifecycleHook(SeedAndTriesFromSystemProperties.class)
  void concurrentVerbHistories_readAsTheModelSaysAtEverySnapshot(
      @ForAll("plans") List<List<Action>> plans) throws Exception {
    String name = "concurrent-model-" + UUID.randomUUID();
    KvStore raw =
        new SlateStoreProvider(
                StoreConfig.of(ObjectStoreSpec.inMemory(name), "lake")
                    .withSettings(StoreSettings.defaults().withFlushTimerOff()))
            .openWriter();
    RecordingKvStore store = new RecordingKvStore(raw);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try (Catalog catalog = Catalog.open(store, CatalogOptions.defaults())) {
      store.clear(); // the bootstrap is not a verb commit
      Map<Long, Attempt> landed = new ConcurrentHashMap<>();
      List<Attempt> refused = java.util.Collections.synchronizedList(new ArrayList<>());
      Map<String, String> lastOptionValue = new ConcurrentHashMap<>();
      List<InlineRaceVerdicts.Race> races =
          java.util.Collections.synchronizedList(new ArrayList<>());
      LostRaceVerdicts verdicts = new LostRaceVerdicts();
      CyclicBarrier start = new CyclicBarrier(THREADS);
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        workers.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < plans.get(thread).size(); i++) {
                    runAction(
                        catalog,
                        store,
                        thread,
                        i,
                        plans.get(thread).get(i),
                        landed,
                        refused,
                        lastOptionValue,
                        races,
                        verdicts);
                  }
                  return null;
                }));
      }
      for (Future<?> w : workers) {
        w.get(2, TimeUnit.MINUTES);
      }

      // Every write, as it reached the store, against the full store around it.
      List<RecordingKvStore.Landed> writes = store.landed();
      for (RecordingKvStore.Landed w : writes) {
        CommitDiffOracle.check(w);
      }
      long head = catalog.snapshot().snapshotId();
      assertEquals(head, landed.size(), "one landed commit per minted snapshot");
      assertTrue(head > 0, "some commit landed");
      assertTrue(
          writes.stream().filter(w -> !w.refused()).mapToLong(w -> w.members().size()).sum()
              >= head,
          "every minted snapshot came through a member of a recorded write");

      // Replay the landed commits in snapshot order through the model.
      List<CatalogModel> bySnapshot = new ArrayList<>();
      CatalogModel model = CatalogModel.bootstrap();
      bySnapshot.add(model);
      for (long s = 1; s <= head; s++) {
        Attempt a = landed.get(s);
        assertEquals(s - 1, a.premise(), "snapshot " + s + " was built on its predecessor");
        model = model.copy();
        model.at = s;
        Class<? extends RuntimeException> refusal = model.apply(a.intent());
        if (refusal != null) {
          throw new AssertionError(
              "the model refuses "
                  + a.intent()
                  + " with "
                  + refusal.getSimpleName()
                  + " at snapshot "
                  + s
                  + ", which landed"
                  + HistoryReport.of(raw, landed, bySnapshot, model, s));
        }
        bySnapshot.add(model);
      }
      // Time travel: every snapshot reads as the model left it. Through a reader opened now, each
      // with the files later flushes backdated into it; through the writer, whose views of earlier
      // snapshots (its head views of the run, cached by id) may have read a table before such a
      // flush: a view keeps a table's files and inlined rows as it read them together (RFC 0003
      // §3.3.2), so each table reads as the model has it either before or after the flush (with
      // the default `through`, at most one flush backdates into a snapshot's tables).
      try (ReadOnlyCatalog reader = Catalog.openReadOnly(raw, CatalogOptions.defaults())) {
        for (long s = 0; s <= head; s++) {
          CatalogModel at = bySnapshot.get((int) s);
          try {
            check(at.asReadAfter(model), reader.snapshotAt(s));
            check(at.asReadAfter(model), at, catalog.snapshotAt(s));
          } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; history:" + history(landed, head), e);
          }
        }
        // Lost races of every verb: judged by the matrix as the runner judged them.
        verdicts.check(bySnapshot, reader);
        // The whole dump of every snapshot, as the writer reads it through the views it kept
        // while committing, is the fresh reader's, but for the statistics: they have no history,
        // so a view shows them as they were when it loaded them (the model checks them at the
        // head). Not when a flush landed: a flush backdates files into snapshots whose views the
        // writer may have loaded before it, and such a view keeps the table's rows inlined as it
        // read them (RFC 0003 §3.3.2), where a fresh reader finds them in the backdated file.
        boolean flushed =
            landed.values().stream().anyMatch(a -> a.intent() instanceof CatalogModel.Intent.Flush);
        if (!flushed) {
          String fresh = withoutStatistics(CatalogDump.allToString(reader));
          String writer = withoutStatistics(CatalogDump.allToString(catalog));
          if (!fresh.equals(writer)) {
            int at = 0;
            while (at < Math.min(fresh.length(), writer.length())
                && fresh.charAt(at) == writer.charAt(at)) {
              at++;
            }
            int from = Math.max(0, at - 600);
            throw new AssertionError(
                "the writer's dump of the history differs from a fresh reader's at "
                    + at
                    + ":\n  fresh:  "
                    + fresh.substring(from, Math.min(fresh.length(), at + 300))
                    + "\n  writer: "
                    + writer.substring(from, Math.min(writer.length(), at + 300))
                    + "\nhistory:"
                    + history(landed, head));
          }
        }
      }
      for (long s = 1; s <= head; s++) {
        Statistics.label("landed").collect(landed.get(s).intent().getClass().getSimpleName());
      }
      // From inside the commit: what each closure read at its premise, for the runs that ended
      // there (landed, or refused without the head moving), is what the model says it was.
      List<Attempt> ended = new ArrayList<>(landed.values());
      for (Attempt a : refused) {
        if (a.error() != CommitConflictException.class
            && a.error() != RetryBudgetExhaustedException.class) {
          ended.add(a);
        }
      }
      for (Attempt a : ended) {
        assertEquals(
            PremiseReads.expected(bySnapshot.get((int) a.premise()), a.intent()),
            a.premiseRead(),
            "what the closure of " + a.intent() + " read at its premise " + a.premise());
      }
      checkUnversioned(model, catalog.snapshot(), lastOptionValue);
      ConcurrentVerbChoices.checkUnversionedTables(model, catalog.snapshot());

      // Every typed refusal is the model's at the premise the closure read.
      for (Attempt a : refused) {
        if (a.error() == CommitConflictException.class
            || a.error() == RetryBudgetExhaustedException.class) {
          continue; // lost to concurrent commits: nothing to predict from one premise
        }
        CatalogModel premise = bySnapshot.get((int) a.premise()).copy();
        premise.at = a.premise() + 1;
        Class<? extends RuntimeException> expected = premise.apply(a.intent());
        Statistics.label("refused")
            .collect(a.intent().getClass().getSimpleName() + " " + a.error().getSimpleName());
        assertEquals(expected, a.error(), a.intent() + " at snapshot " + a.premise());
      }
      // Lost races of the inline verbs: classified as ConflictMatrix says.
      InlineRaceVerdicts.check(races, landed, catalog);
      // Over all tries, every kind of verb lands and the refusals the model predicts occur.
      Statistics.label("landed")
          .coverage(
              c -> {
                for (String kind : LANDING) {
                  c.check(kind).count(n -> n > 0);
                }
              });
      for (RecordingKvStore.Landed w : writes) {
        if (!w.refused()) {
          Statistics.label("batches").collect(w.members().size() > 1 ? "shared" : "alone");
        }
      }
      Statistics.label("batches").coverage(c -> c.check("shared").count(n -> n > 0));
      Statistics.label("refused")
          .coverage(
              c -> {
                for (String kind : REFUSED) {
                  c.check(kind).count(n -> n > 0);
                }
              });
    } finally {
      pool.shutdownNow();
      store.close();
      ObjectStoreSpec.dropInMemory(name);
    }
  }

  /** A dump without the tables' statistics and column statistics (flat objects in the dump). */
  private static String withoutStatistics(String dump) {
    return dump.replaceAll("\"stats\":\\{[^}]*\\}", "\"stats\":{}")
        .replaceAll("\"column_stats\":\\[(\\{[^}]*\\},?)*\\]", "\"column_stats\":[]");
  }

  /** The landed commits up to snapshot {@code last}, one a line. */
  private static String history(Map<Long, Attempt> landed, long last) {
    StringBuilder history = new StringBuilder();
    for (long h = 1; h <= last; h++) {
      history.append("\n  ").append(h).append(": ").append(landed.get(h).intent());
    }
    return history.toString();
  }

  /**
   * What one run of a closure meant to do, on which premise (snapshot id, and the batch sequence of
   * the head it stood at), and how it ended; {@code premiseRead} is what it read of the entities
   * its verb touches ({@link PremiseReads}), {@code saw} what it read of its table's inlined rows
   * for an inline verb (else empty).
   */
  record Attempt(
      long premise,
      long batch,
      CatalogModel.Intent intent,
      Class<?> error,
      String premiseRead,
      String saw) {
    Attempt endedBy(Class<?> error) {
      return new Attempt(premise, batch, intent, error, premiseRead, saw);
    }
  }

  private static void runAction(
      Catalog catalog,
      RecordingKvStore store,
      int thread,
      int index,
      Action action,
      Map<Long, Attempt> landed,
      List<Attempt> refused,
      Map<String, String> lastOptionValue,
      List<InlineRaceVerdicts.Race> races,
      LostRaceVerdicts verdicts) {
    // Written by the closure's runs, read after commit returns on this same thread.
    Attempt[] last = new Attempt[1];
    List<Attempt> runs = new ArrayList<>();
    // Per run that was followed by another: the head when its submission was refused, if it was.
    List<Long> refusedAt = new ArrayList<>();
    LostRaceVerdicts.refusedHead(store); // forget this thread's earlier refusals
    try {
      long id =
          catalog.commit(
              tx -> {
                if (!runs.isEmpty()) {
                  refusedAt.add(LostRaceVerdicts.refusedHead(store));
                }
                CatalogModel.Intent intent = choose(tx, thread, index, action);
                String read = PremiseReads.read(tx, intent);
                last[0] =
                    new Attempt(
                        tx.premise().snapshotId(),
                        tx.premise().builtAtHead().orElseThrow().batchSeq(),
                        intent,
                        null,
                        read,
                        HistoryReport.saw(tx, intent));
                runs.add(last[0]);
                try {
                  perform(tx, intent);
                } catch (AlreadyExistsException
                    | dev.moraine.core.catalog.NotFoundException
                    | InvalidArgumentException e) {
                  // The run ends refused; the commit re-runs it if the head moved meanwhile.
                  runs.set(runs.size() - 1, last[0].endedBy(e.getClass()));
                  throw e;
                }
              });
      InlineRaceVerdicts.lostRaces(lostToSnapshots(runs, refusedAt), races);
      rerunRaces(runs, refusedAt, verdicts);
      if (last[0].intent() instanceof CatalogModel.Intent.SetOption o) {
        lastOptionValue.put(o.key(), o.value());
        assertEquals(last[0].premise(), id, "an option change mints no snapshot");
      } else {
        Attempt previous = landed.put(id, last[0]);
        assertEquals(null, previous, "snapshot " + id + " landed twice");
      }
    } catch (AlreadyExistsException
        | dev.moraine.core.catalog.NotFoundException
        | InvalidArgumentException
        | CommitConflictException
        | RetryBudgetExhaustedException e) {
      Long lastRefused = LostRaceVerdicts.refusedHead(store);
      refused.add(last[0].endedBy(e.getClass()));
      InlineRaceVerdicts.lostRaces(lostToSnapshots(runs, refusedAt), races);
      rerunRaces(runs, refusedAt, verdicts);
      if (e instanceof CommitConflictException) {
        races.add(
            new InlineRaceVerdicts.Race(
                last[0].premise(),
                last[0].batch(),
                last[0].intent(),
                catalog.snapshot().snapshotId(),
                true));
        verdicts.conflict(last[0].premise(), last[0].intent(), lastRefused, e.getMessage());
      }
    }
  }

  /**
   * {@code runs}, with each run that lost only to batches minting no snapshot (an option change:
   * the head at its refusal is its premise) marked as not judged ({@code Void}) for {@link
   * InlineRaceVerdicts}, which would judge it against the first snapshot after its premise, one it
   * may never have seen. {@link LostRaceVerdicts} judges every lost race with both bounds.
   */
  private static List<Attempt> lostToSnapshots(List<Attempt> runs, List<Long> refusedAt) {
    List<Attempt> judged = new ArrayList<>(runs);
    for (int r = 0; r < refusedAt.size(); r++) {
      Attempt run = runs.get(r);
      if (run.error() == null && refusedAt.get(r) != null && refusedAt.get(r) == run.premise()) {
        judged.set(r, run.endedBy(Void.class));
      }
    }
    return judged;
  }

  /** Each run that staged a commit and was re-run lost a benign race. */
  private static void rerunRaces(
      List<Attempt> runs, List<Long> refusedAt, LostRaceVerdicts verdicts) {
    for (int r = 0; r + 1 < runs.size(); r++) {
      Attempt run = runs.get(r);
      if (run.error() == null) {
        verdicts.benign(run.premise(), run.intent(), refusedAt.get(r), runs.get(r + 1).premise());
      }
    }
  }

  /** The intent of an action against the premise the closure was given. */
  private static CatalogModel.Intent choose(Transaction tx, int thread, int index, Action a) {
    CatalogSnapshot p = tx.premise();
    List<TableInfo> tables = sorted(p.tables(), TableInfo::tableId);
    List<SchemaInfo> schemas = sorted(p.schemas(), SchemaInfo::schemaId);
    TableInfo table = tables.isEmpty() ? null : tables.get(a.pick() % tables.size());
    long schema = schemas.get(a.pick() % schemas.size()).schemaId();
    // Small name pools, with case variants, so that names collide across threads.
    String relation = (a.arg() % 2 == 0 ? "t" : "T") + (a.arg() % 4);
    switch (a.op()) {
      case 0:
        return new CatalogModel.Intent.CreateSchema("s" + (a.arg() % 3));
      case 1:
        if (schemas.size() > 1) {
          return new CatalogModel.Intent.DropSchema(
              schemas.get(1 + a.pick() % (schemas.size() - 1)).schemaId());
        }
        break;
      case 2:
        if (table != null) {
          return new CatalogModel.Intent.RenameTable(table.tableId(), relation);
        }
        break;
      case 3:
        if (table != null) {
          return new CatalogModel.Intent.DropTable(table.tableId());
        }
        break;
      case 4:
        if (table != null) {
          return new CatalogModel.Intent.AddColumn(
              table.tableId(), "c" + a.arg(), ConcurrentAlterChoices.addedType(a.arg()));
        }
        break;
      case 5:
        if (table != null) {
          List<ColumnInfo> cols = sorted(p.columns(table.tableId()), ColumnInfo::columnId);
          return new CatalogModel.Intent.DropColumn(
              table.tableId(), cols.get(a.arg() % cols.size()).columnId());
        }
        break;
      case 6:
        return new CatalogModel.Intent.CreateView(schema, "v" + (a.arg() % 3));
      case 7:
        List<ViewInfo> views = sorted(p.views(), ViewInfo::viewId);
        if (!views.isEmpty()) {
          return new CatalogModel.Intent.DropView(views.get(a.pick() % views.size()).viewId());
        }
        break;
      case 8:
      case 9:
        if (table != null) {
          // As many partition values as the premise's key has; argument 5, one too many.
          int keys = ConcurrentAlterChoices.keyCount(p, table.tableId());
          return new CatalogModel.Intent.RegisterFile(
              table.tableId(), 1 + a.arg() * 5L, keys + (a.arg() == 5 ? 1 : 0));
        }
        break;
      case 10:
        if (table != null) {
          List<Long> undeleted = new ArrayList<>();
          List<Long> deleted =
              p.deleteFiles(table.tableId()).stream().map(DeleteFileInfo::dataFileId).toList();
          for (DataFileInfo f : p.dataFiles(table.tableId())) {
            if (!deleted.contains(f.dataFileId())) {
              undeleted.add(f.dataFileId());
            }
          }
          if (!undeleted.isEmpty()) {
            return new CatalogModel.Intent.RegisterDelete(
                table.tableId(), undeleted.get(a.pick() % undeleted.size()));
          }
        }
        break;
      case 11:
        if (table != null) {
          return new CatalogModel.Intent.UpdateStats(table.tableId(), a.pick(), 100L * a.arg());
        }
        break;
      case 12:
        return new CatalogModel.Intent.SetOption("opt_" + thread, thread + "." + index);
      default:
        CatalogModel.Intent more =
            a.op() >= ConcurrentAlterChoices.FIRST_OP
                ? ConcurrentAlterChoices.choose(p, table, schema, a)
                : ConcurrentVerbChoices.choose(p, table, schema, a);
        if (more != null) {
          return more;
        }
        break;
    }
    return new CatalogModel.Intent.CreateTable(schema, relation, 1 + a.arg() % 3);
  }

  static void perform(Transaction tx, CatalogModel.Intent intent) {
    if (intent instanceof CatalogModel.Intent.CreateSchema i) {
      tx.createSchema(i.name());
    } else if (intent instanceof CatalogModel.Intent.DropSchema i) {
      tx.dropSchema(i.schemaId());
    } else if (intent instanceof CatalogModel.Intent.CreateTable i) {
      List<ColumnDef> cols = new ArrayList<>();
      for (int c = 0; c < i.columns(); c++) {
        cols.add(ColumnDef.of("c" + c, ConcurrentAlterChoices.createdType(c)));
      }
      tx.createTable(i.schemaId(), i.name(), cols);
    } else if (intent instanceof CatalogModel.Intent.RenameTable i) {
      tx.renameTable(i.tableId(), i.name());
    } else if (intent instanceof CatalogModel.Intent.DropTable i) {
      tx.dropTable(i.tableId());
    } else if (intent instanceof CatalogModel.Intent.AddColumn i) {
      tx.addColumn(i.tableId(), ColumnDef.of(i.name(), i.type()));
    } else if (intent instanceof CatalogModel.Intent.DropColumn i) {
      tx.dropColumn(i.tableId(), i.columnId());
    } else if (intent instanceof CatalogModel.Intent.CreateView i) {
      tx.createView(i.schemaId(), i.name(), "duckdb", "SELECT 1");
    } else if (intent instanceof CatalogModel.Intent.DropView i) {
      tx.dropView(i.viewId());
    } else if (intent instanceof CatalogModel.Intent.RegisterFile i) {
      List<String> values = new ArrayList<>();
      for (int k = 0; k < i.partitionValues(); k++) {
        values.add("p" + k);
      }
      tx.registerDataFile(
          i.tableId(),
          NewDataFile.parquet("f.parquet", i.rows(), 1_000, 100).withPartitionValues(values));
    } else if (intent instanceof CatalogModel.Intent.RegisterDelete i) {
      tx.registerDeleteFile(
          i.tableId(), NewDeleteFile.parquet(i.dataFileId(), "d.parquet", 1, 50, 10));
    } else if (intent instanceof CatalogModel.Intent.UpdateStats i) {
      tx.updateTableStats(i.tableId(), i.recordCount(), i.sizeBytes());
    } else if (intent instanceof CatalogModel.Intent.SetOption i) {
      tx.setOption(OptionScope.global(), i.key(), i.value());
    } else if (!ConcurrentVerbChoices.perform(tx, intent)
        && !ConcurrentAlterChoices.perform(tx, intent)) {
      throw new AssertionError("unknown intent " + intent);
    }
  }

  private static <T> List<T> sorted(List<T> items, java.util.function.ToLongFunction<T> id) {
    List<T> out = new ArrayList<>(items);
    out.sort(Comparator.comparingLong(id));
    return out;
  }

  /** The versioned state and the counters at one snapshot. */
  static void check(CatalogModel m, CatalogSnapshot at) {
    check(m, m, at);
  }

  /**
   * The versioned state and the counters at one snapshot, as {@code m} has them; each table may
   * instead read as {@code alternative} has it (the same snapshot before a flush backdated files
   * into it).
   */
  static void check(CatalogModel m, CatalogModel alternative, CatalogSnapshot at) {
    String where = " at snapshot " + at.snapshotId();
    Map<Long, String> schemas = new TreeMap<>();
    at.schemas().forEach(s -> schemas.put(s.schemaId(), s.name()));
    assertEquals(m.schemas(), schemas, "schemas" + where);
    assertEquals(
        m.objectTags(m.schemas().keySet()),
        ConcurrentAlterChoices.objectTags(at, m.schemas().keySet()),
        "schema tags" + where);
    Map<Long, CatalogModel.Table> tables = new TreeMap<>();
    for (TableInfo t : at.tables()) {
      tables.put(t.tableId(), ConcurrentVerbChoices.read(at, t));
    }
    assertEquals(m.tables().keySet(), tables.keySet(), "table ids" + where);
    for (var e : m.tables().entrySet()) {
      String read = tables.get(e.getKey()).describe();
      if (!read.equals(alternative.tables().get(e.getKey()).describe())) {
        assertEquals(e.getValue().describe(), read, "table " + e.getKey() + where);
      }
    }
    Map<Long, String> views = new TreeMap<>();
    at.views().forEach(v -> views.put(v.viewId(), v.schemaId() + "." + v.name()));
    assertEquals(m.views(), views, "views" + where);
    ConcurrentVerbChoices.checkViewsAndMacros(m, at, where);
    assertEquals(m.nextCatalogId(), at.info().nextCatalogId(), "next_catalog_id" + where);
    assertEquals(m.nextFileId(), at.info().nextFileId(), "next_file_id" + where);
  }

  /** Statistics and options have no history: they are checked at the head only. */
  private static void checkUnversioned(
      CatalogModel m, CatalogSnapshot head, Map<String, String> lastOptionValue) {
    for (var e : m.stats().entrySet()) {
      TableStats s = head.tableStats(e.getKey()).orElseThrow();
      assertEquals(
          List.of(e.getValue()[0], e.getValue()[1], e.getValue()[2]),
          List.of(s.recordCount(), s.fileSizeBytes(), s.nextRowId()),
          "statistics of table " + e.getKey());
      Map<Long, List<String>> columnStats = new TreeMap<>();
      m.tables()
          .get(e.getKey())
          .columnStats
          .forEach((c, v) -> columnStats.put(c, java.util.Arrays.asList(v)));
      assertEquals(
          columnStats,
          ConcurrentAlterChoices.columnStats(head, e.getKey()),
          "column statistics of table " + e.getKey());
    }
    assertEquals(
        new TreeMap<>(lastOptionValue),
        new TreeMap<>(
            head.options(OptionScope.global()).entrySet().stream()
                .filter(e -> e.getKey().startsWith("opt_"))
                .collect(
                    java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue))),
        "global options: each thread's last value");
  }
}
