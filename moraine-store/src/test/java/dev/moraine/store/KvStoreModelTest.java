package dev.moraine.store;

import static dev.moraine.store.KvStoreModel.hex;
import static dev.moraine.store.KvStoreModel.hexValue;
import static dev.moraine.store.KvStoreModel.line;
import static dev.moraine.store.KvStoreModel.view;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.moraine.core.kv.CheckpointId;
import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvClosedException;
import dev.moraine.core.kv.KvException;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.KvSnapshot;
import dev.moraine.core.kv.KvStore;
import dev.moraine.core.kv.KvTransaction;
import dev.moraine.core.kv.KvTransactionConflictException;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.core.kv.ScanOrder;
import dev.moraine.core.kv.WriteBatch;
import dev.moraine.core.kv.WriteReceipt;
import dev.moraine.store.KvStoreModel.Mutation;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import net.jqwik.api.statistics.Statistics;

/**
 * A stateful property of the SlateDB binding: random sequences of writes, transactions, reads,
 * snapshots, WAL flushes, reopens and checkpoints run against a real store on a named in-memory
 * object store and against {@link KvStoreModel}. Each action checks what it did, and after every
 * action the writer, every snapshot and pinned reader still open and a transaction left open must
 * all agree with the model.
 *
 * <p>What the model promises is what the SPI's javadoc promises:
 *
 * <ul>
 *   <li>a batch or a committed transaction changes the applied state atomically, and the writer's
 *       reads (gets and scans in both orders, unsigned key order) see the applied state;
 *   <li>a transaction sees the state when it began plus its own writes; of two overlapping
 *       transactions, or a transaction and a plain write, the first to commit wins and the other
 *       fails with {@link KvTransactionConflictException} exactly when their write sets share a key
 *       (reads never conflict), writing nothing; a transaction left open while other actions run
 *       loses exactly when a write committed since it began touched one of its keys;
 *   <li>a snapshot keeps the state it was taken at, whatever is written later;
 *   <li>with the flush timer off, {@link KvStore#flushWal()} makes the applied state durable, and
 *       so does a clean close, which flushes everything applied: a reopened writer sees the whole
 *       applied state. Otherwise a write becomes durable only when the memtable fills (it is then
 *       frozen and the WAL flushed); the model learns which of its applied states that made durable
 *       from {@link KvStore#durableSeqnum()};
 *   <li>a checkpoint covers exactly the durable state, and a reader pinned at it keeps seeing that
 *       state after later writes, flushes and reopens; a newly opened latest-following reader sees
 *       exactly the durable state.
 * </ul>
 *
 * <p>Keys are mostly 1 to 3 bytes over {@code 00 7f 80 ff}, so that prefixes, the signed/unsigned
 * boundary and the all-0xFF prefix (no successor) all come up, and otherwise one of {@value
 * #WIDE_KEYS} "wide" keys {@code 42 hh ll}. Values are mostly 0 to 20 bytes, sometimes up to 4 KiB
 * and now and then 256 KiB to 1.25 MiB. Bulk loads write hundreds of consecutive wide keys with
 * values up to 5 KiB in one batch (and bulk deletes remove runs of them), so scans span several
 * native scan runs, both by entry count (256) and by bytes (1 MiB), in both orders, through
 * snapshots, transactions and readers too. The writer is reopened often, and it runs with small
 * level-0 SSTs and a compactor that polls every few milliseconds, so compaction happens during the
 * sequences. After the property, a check asserts that the run did cover these cases.
 *
 * <p>The seed is fixed locally, so every local run checks the same sequences; in CI (environment
 * {@code CI=true}) every run draws a fresh one. The seed is printed when the property starts, and a
 * failure's message names it. To replay or explore:
 *
 * <pre>
 * mvn -B -pl moraine-store test -Dtest=KvStoreModelTest -Dmoraine.property.seed=random
 * mvn -B -pl moraine-store test -Dtest=KvStoreModelTest -Dmoraine.property.seed=42 \
 *     -Dmoraine.property.tries=200 -Dmoraine.property.actions=150
 * </pre>
 *
 * ({@code seed} and {@code tries}: see {@link SeedAndTriesFromSystemProperties}; {@code actions} is
 * the longest sequence, default 40). A failure prints the shrunk action sequence, each action with
 * the keys and values it used (long values abbreviated with their length and CRC-32; the seed
 * replays them exactly). After a failure jqwik runs the failing seed again first on the next run
 * (it prints "Using previous seed instead"), whatever the seed settings, until the property passes.
 */
class KvStoreModelTest {

  private static final byte[] KEY_BYTES = {0x00, 0x7F, (byte) 0x80, (byte) 0xFF};

  /** The first byte of wide keys: between the small keys' 00 and 7f prefixes. */
  private static final byte WIDE = 0x42;

  /** How many wide keys there are: enough for runs of several hundred consecutive ones. */
  static final int WIDE_KEYS = 800;

  /** A native scan run ends at this many entries... */
  static final int RUN_ENTRIES = 256;

  /** ...or at about this many bytes. */
  static final int RUN_BYTES = 1 << 20;

  /** Properties with at least this many tries must show they covered long scans and compaction. */
  private static final int TRIES_FOR_COVERAGE = 50;

  /** System property: the most actions in one sequence (default 40). */
  static final String ACTIONS = "moraine.property.actions";

  private static final int MAX_OPEN_SNAPSHOTS = 2;
  private static final int MAX_OPEN_READERS = 3;

  /** Stores of the current try; a try that fails part-way still has its store released. */
  private final List<ModelledStore> stores = new ArrayList<>();

  @Property(tries = 100, seed = "7243520016381409231")
  @AddLifecycleHook(SeedAndTriesFromSystemProperties.class)
  void theStoreBehavesLikeItsModel(@ForAll("chains") ActionChain<ModelledStore> chain) {
    chain
        .withInvariant("the store and every open view match the model", ModelledStore::checkAll)
        .run();
    // Shown in jqwik's report: what the sequences did.
    for (String action : chain.transformations()) {
      Statistics.label("actions").collect(kindOf(action));
    }
  }

  /** The kind of an action: its description up to the first colon. */
  private static String kindOf(String description) {
    int colon = description.indexOf(':');
    return colon < 0 ? description : description.substring(0, colon);
  }

  /** What the tries of this property exercised, summed as their stores close. */
  private final Coverage coverage = new Coverage();

  @AfterTry
  void releaseStores() {
    for (ModelledStore store : stores) {
      store.close();
      coverage.add(store);
    }
    stores.clear();
  }

  /**
   * Releases what is left and checks that a full run reached what the generators aim at: scans
   * across several native runs by entries and by bytes, reopens, and compaction. A short run (a
   * replay with few tries) is not held to it.
   */
  @AfterProperty
  void releaseStoresAndCheckCoverage() {
    releaseStores();
    System.out.println("KvStoreModelTest covered " + coverage);
    if (coverage.tries >= TRIES_FOR_COVERAGE) {
      assertTrue(coverage.scansOverEntries > 0, () -> "no scan crossed 256 entries: " + coverage);
      assertTrue(coverage.scansOverBytes > 0, () -> "no scan crossed 1 MiB: " + coverage);
      assertTrue(coverage.reopens > 0, () -> "no reopen: " + coverage);
      assertTrue(coverage.compactedSsts > 0, () -> "no compaction: " + coverage);
    }
  }

  /** Counts of what tries exercised. */
  static final class Coverage {
    int tries;
    long scansOverEntries;
    long scansOverBytes;
    long reopens;
    long compactedSsts;

    void add(ModelledStore store) {
      tries++;
      scansOverEntries += store.scansOverEntries;
      scansOverBytes += store.scansOverBytes;
      reopens += store.reopens;
      compactedSsts += store.compactedSsts();
    }

    @Override
    public String toString() {
      return tries
          + " tries: "
          + scansOverEntries
          + " scans over 256 entries, "
          + scansOverBytes
          + " over 1 MiB, "
          + reopens
          + " reopens, "
          + compactedSsts
          + " compacted SSTs written";
    }
  }

  @Provide
  Arbitrary<ActionChain<ModelledStore>> chains() {
    return ActionChain.<ModelledStore>startWith(this::newStore)
        .withAction(5, new WriteBatchAction())
        .withAction(3, new TransactionAction())
        .withAction(3, new OverlappingTransactionsAction())
        .withAction(2, new GetAction())
        .withAction(3, new ScanAction())
        .withAction(2, new SnapshotAction())
        .withAction(3, new FlushWalAction())
        .withAction(3, new ReopenAction())
        .withAction(1, new BulkLoadAction())
        .withAction(1, new BulkDeleteAction())
        .withAction(2, new CheckpointAction())
        .withAction(1, new LatestReaderAction())
        .withAction(2, new BeginOpenTransactionAction())
        .withAction(2, new CommitOpenTransactionAction())
        .withMaxTransformations(Integer.getInteger(ACTIONS, 40));
  }

  private ModelledStore newStore() {
    // Shrinking runs sequences again: release what an earlier run left open first.
    releaseStores();
    ModelledStore store = new ModelledStore("model-" + UUID.randomUUID());
    stores.add(store);
    return store;
  }

  // ------------------------------------------------------------------ generators

  static Arbitrary<byte[]> keys() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, smallKeys()),
        Tuple.of(1, Arbitraries.integers().between(0, WIDE_KEYS - 1).map(KvStoreModelTest::wide)));
  }

  static Arbitrary<byte[]> smallKeys() {
    Arbitrary<Integer> length =
        Arbitraries.frequency(Tuple.of(3, 1), Tuple.of(3, 2), Tuple.of(2, 3));
    return length.flatMap(
        n ->
            Arbitraries.integers()
                .between(0, KEY_BYTES.length - 1)
                .list()
                .ofSize(n)
                .map(
                    indexes -> {
                      byte[] key = new byte[indexes.size()];
                      for (int i = 0; i < key.length; i++) {
                        key[i] = KEY_BYTES[indexes.get(i)];
                      }
                      return key;
                    }));
  }

  /** The wide key number {@code index}: {@code 42} and the index in two bytes, big-endian. */
  static byte[] wide(int index) {
    return new byte[] {WIDE, (byte) (index >>> 8), (byte) index};
  }

  static Arbitrary<byte[]> values() {
    return Arbitraries.frequencyOf(
        Tuple.of(40, Arbitraries.bytes().array(byte[].class).ofMaxSize(20)),
        Tuple.of(8, filledValues(21, 4 << 10)),
        Tuple.of(1, filledValues(256 << 10, 1280 << 10)));
  }

  /** Values of {@code min} to {@code max} bytes, filled from a generated seed. */
  static Arbitrary<byte[]> filledValues(int min, int max) {
    return Combinators.combine(Arbitraries.integers().between(min, max), Arbitraries.longs())
        .as((size, seed) -> filled(size, new SplittableRandom(seed)));
  }

  static byte[] filled(int size, SplittableRandom random) {
    byte[] value = new byte[size];
    random.nextBytes(value);
    return value;
  }

  static Arbitrary<Mutation> mutations() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Combinators.combine(keys(), values()).as(Mutation::put)),
        Tuple.of(1, keys().map(Mutation::delete)));
  }

  static Arbitrary<List<Mutation>> batches(int min, int max) {
    return mutations().list().ofMinSize(min).ofMaxSize(max);
  }

  /** A range of every shape: bounded, half-bounded, empty bounds, prefixes, everything. */
  static Arbitrary<KeyRange> ranges() {
    Arbitrary<byte[]> bound =
        Arbitraries.frequencyOf(
            Tuple.of(6, keys()),
            Tuple.of(2, Arbitraries.<byte[]>just(null)),
            Tuple.of(1, Arbitraries.just(new byte[0])));
    Arbitrary<KeyRange> between =
        Combinators.combine(bound, bound)
            .as(
                (a, b) -> {
                  if (a != null && b != null && Arrays.compareUnsigned(a, b) > 0) {
                    return KeyRange.of(b, a);
                  }
                  return KeyRange.of(a, b);
                });
    Arbitrary<KeyRange> prefix =
        Arbitraries.frequencyOf(
                Tuple.of(4, smallKeys().filter(k -> k.length <= 2)),
                Tuple.of(1, Arbitraries.just(new byte[] {WIDE})))
            .map(KeyRange::prefix);
    return Arbitraries.frequencyOf(
        Tuple.of(5, between), Tuple.of(3, prefix), Tuple.of(1, Arbitraries.just(KeyRange.all())));
  }

  static Arbitrary<ScanOrder> orders() {
    return Arbitraries.of(ScanOrder.class);
  }

  static String describe(List<Mutation> mutations) {
    return mutations.stream().map(Mutation::toString).collect(Collectors.joining(", ", "[", "]"));
  }

  static String describe(KeyRange range, ScanOrder order) {
    return range + " " + (order == ScanOrder.ASCENDING ? "asc" : "desc");
  }

  // ------------------------------------------------------------------ the system and its model

  /** The real store, the handles opened on it, and the model they must all agree with. */
  static final class ModelledStore implements AutoCloseable {
    final String name;
    final SlateStoreProvider provider;
    final KvStoreModel model = new KvStoreModel();
    KvStore writer;

    /** The highest sequence number any write returned so far. */
    long lastSeqnum;

    /** Counts the object store's operations (it injects nothing): compaction shows as PUTs. */
    final FaultInjector counter = new FaultInjector();

    /** Compacted SSTs written, read from {@link #counter} when the store closes. */
    private long compactedSsts;

    /** Scans checked that were longer than one native run, by entries and by bytes. */
    long scansOverEntries;

    long scansOverBytes;

    /** Reopens of the writer. */
    long reopens;

    /**
     * Applied states not known to be durable yet, oldest first, each with the sequence number of
     * the write that produced it. With the flush timer off a write still becomes durable without a
     * flush when the memtable fills (it is frozen and the WAL flushed before it is written out), so
     * which of these states is durable is learnt from the writer's durable sequence number.
     */
    final Deque<Map.Entry<Long, NavigableMap<byte[], byte[]>>> notYetDurable = new ArrayDeque<>();

    /** Everything applied is durable: after a WAL flush or a clean close. */
    void allDurable() {
      model.makeDurable();
      notYetDurable.clear();
    }

    /**
     * Moves the model's durable state up to the newest applied state the writer reports durable.
     * Call it right before reading what must be durable, with no write in between.
     */
    void learnDurable() {
      long durable = writer.durableSeqnum();
      NavigableMap<byte[], byte[]> newest = null;
      while (!notYetDurable.isEmpty() && notYetDurable.peekFirst().getKey() <= durable) {
        newest = notYetDurable.removeFirst().getValue();
      }
      if (newest != null) {
        Statistics.label("durable without a flush").collect("yes");
        model.makeDurable(newest);
      }
    }

    /**
     * The states a reader opened from now on may show: each applied state from the known durable
     * one on, oldest first, keyed by the sequence number of its write (-1 for the durable state). A
     * WAL or memtable flush started by earlier writes can land after the model last learned the
     * durable seqnum, so a reader may show a later state than the known durable one.
     */
    List<Map.Entry<Long, NavigableMap<byte[], byte[]>>> statesFromDurable() {
      List<Map.Entry<Long, NavigableMap<byte[], byte[]>>> candidates = new ArrayList<>();
      candidates.add(Map.entry(-1L, KvStoreModel.frozenCopy(model.durable())));
      candidates.addAll(notYetDurable);
      return candidates;
    }

    /**
     * Which of {@code candidates} (from {@link #statesFromDurable()}, taken before the reader
     * opened) {@code reader} shows; fails the run when it shows none. A later state than the known
     * durable one is durable from then on, and the model learns it, counted under {@code
     * statistic}.
     */
    NavigableMap<byte[], byte[]> stateShownBy(
        String label,
        KvReader reader,
        List<Map.Entry<Long, NavigableMap<byte[], byte[]>>> candidates,
        String statistic) {
      NavigableMap<byte[], byte[]> seen = new TreeMap<>(Arrays::compareUnsigned);
      try (KvIterator all = reader.scan(KeyRange.all())) {
        while (all.hasNext()) {
          KeyValue kv = all.next();
          seen.put(kv.key(), kv.value());
        }
      }
      Map.Entry<Long, NavigableMap<byte[], byte[]>> shown = null;
      for (Map.Entry<Long, NavigableMap<byte[], byte[]>> candidate : candidates) {
        if (sameState(candidate.getValue(), seen)) {
          shown = candidate;
        }
      }
      if (shown == null) {
        fail(
            label
                + ": shows "
                + seen.size()
                + " keys, which is none of the applied states from the durable one on ("
                + candidates.size()
                + " candidates)");
      }
      if (shown.getKey() >= 0) {
        Statistics.label(statistic).collect("yes");
        while (!notYetDurable.isEmpty() && notYetDurable.peekFirst().getKey() <= shown.getKey()) {
          notYetDurable.removeFirst();
        }
        model.makeDurable(shown.getValue());
      }
      return shown.getValue();
    }

    private static boolean sameState(
        NavigableMap<byte[], byte[]> a, NavigableMap<byte[], byte[]> b) {
      if (a.size() != b.size()) {
        return false;
      }
      Iterator<Map.Entry<byte[], byte[]>> x = a.entrySet().iterator();
      Iterator<Map.Entry<byte[], byte[]>> y = b.entrySet().iterator();
      while (x.hasNext()) {
        Map.Entry<byte[], byte[]> l = x.next();
        Map.Entry<byte[], byte[]> r = y.next();
        if (!Arrays.equals(l.getKey(), r.getKey()) || !Arrays.equals(l.getValue(), r.getValue())) {
          return false;
        }
      }
      return true;
    }

    /** Open snapshots, oldest first, each with the applied state it was taken at. */
    final Deque<Pinned<KvSnapshot>> snapshots = new ArrayDeque<>();

    /** Open pinned readers, oldest first, each with the durable state of its checkpoint. */
    final Deque<Pinned<KvReader>> readers = new ArrayDeque<>();

    /** A transaction left open across other actions, or null. */
    OpenTransaction openTransaction;

    /**
     * A transaction that stays open while other actions run.
     *
     * @param txn the transaction
     * @param sees what it must read: the applied state when it began plus its own writes
     * @param writes its buffered writes
     * @param writtenSince the keys other writes committed since it began
     */
    record OpenTransaction(
        KvTransaction txn,
        NavigableMap<byte[], byte[]> sees,
        List<Mutation> writes,
        NavigableMap<byte[], Boolean> writtenSince) {}

    /** A view that must keep showing {@code state}. */
    record Pinned<V extends AutoCloseable>(
        String label, V view, NavigableMap<byte[], byte[]> state) {}

    ModelledStore(String name) {
      this.name = name;
      // Small level-0 SSTs and a compactor polling every few milliseconds: reopens and bulk loads
      // produce level-0 tables, and compaction merges them while the sequence runs.
      StoreSettings settings =
          StoreSettings.defaults()
              .withFlushTimerOff()
              .withCompactor(true)
              .withCompactorPollInterval(Duration.ofMillis(5))
              .withL0SstBytes(256L << 10);
      this.provider =
          new SlateStoreProvider(
              StoreConfig.of(
                      ObjectStoreSpec.faulty(ObjectStoreSpec.inMemory(name), counter), "store")
                  .withSettings(settings));
      this.writer = provider.openWriter();
    }

    /** Compacted SSTs written while the store was open; known once it is closed. */
    long compactedSsts() {
      return compactedSsts;
    }

    /** Writes {@code mutations} as one batch and applies them to the model. */
    void write(List<Mutation> mutations) {
      WriteBatch batch = new WriteBatch();
      for (Mutation m : mutations) {
        if (m.isDelete()) {
          batch.delete(m.key());
        } else {
          batch.put(m.key(), m.value());
        }
      }
      WriteReceipt receipt = writer.write(batch);
      acknowledge(receipt, "write " + describe(mutations));
      applied(mutations);
    }

    /** Records that {@code mutations} were applied (a write or a commit). */
    void applied(List<Mutation> mutations) {
      model.apply(mutations);
      notYetDurable.addLast(Map.entry(lastSeqnum, KvStoreModel.frozenCopy(model.applied())));
      if (openTransaction != null) {
        openTransaction.writtenSince().putAll(KvStoreModel.keysOf(mutations));
      }
    }

    /** Buffers {@code mutations} in {@code txn}, in order. */
    static void buffer(KvTransaction txn, List<Mutation> mutations) {
      for (Mutation m : mutations) {
        if (m.isDelete()) {
          txn.delete(m.key());
        } else {
          txn.put(m.key(), m.value());
        }
      }
    }

    /** Checks that a write's sequence number follows every earlier one. */
    void acknowledge(WriteReceipt receipt, String what) {
      assertNotNull(receipt, what + " returned no receipt");
      assertTrue(
          receipt.seqnum() > lastSeqnum,
          () -> what + " got seqnum " + receipt.seqnum() + " after " + lastSeqnum);
      lastSeqnum = receipt.seqnum();
    }

    /** Every key {@code mutations} touched reads as the model says, through {@code view}. */
    static void checkGets(
        String what,
        KvReadView view,
        NavigableMap<byte[], byte[]> expected,
        List<Mutation> touched) {
      for (Mutation m : touched) {
        checkGet(what, view, expected, m.key());
      }
    }

    static void checkGet(
        String what, KvReadView view, NavigableMap<byte[], byte[]> expected, byte[] key) {
      byte[] want = expected.get(key);
      byte[] got = view.get(key);
      if (!Arrays.equals(want, got)) {
        fail(
            what + ": get " + hex(key) + ": expected " + hexValue(want) + ", got " + hexValue(got));
      }
    }

    /** A scan of {@code range} in both orders through {@code view} matches the model's. */
    void checkScan(
        String what, KvReadView view, NavigableMap<byte[], byte[]> expected, KeyRange range) {
      for (ScanOrder order : ScanOrder.values()) {
        checkScan(what, view, expected, range, order);
      }
    }

    /**
     * A scan of {@code range} in {@code order} through {@code view} returns exactly the model's
     * entries, in order. Compared entry by entry (values can be large), described only on a
     * mismatch; a scan long enough to span several native runs is counted for the coverage check.
     */
    void checkScan(
        String what,
        KvReadView view,
        NavigableMap<byte[], byte[]> expected,
        KeyRange range,
        ScanOrder order) {
      Iterator<Map.Entry<byte[], byte[]>> want = view(expected, range, order).entrySet().iterator();
      int entries = 0;
      long bytes = 0;
      try (KvIterator got = view.scan(range, order)) {
        while (want.hasNext() || got.hasNext()) {
          String where = what + ": scan " + describe(range, order) + ", entry " + entries;
          if (!got.hasNext()) {
            Map.Entry<byte[], byte[]> missing = want.next();
            fail(
                where + ": the scan ended; expected " + line(missing.getKey(), missing.getValue()));
          }
          KeyValue kv = got.next();
          if (!want.hasNext()) {
            fail(where + ": expected the end; got " + line(kv.key(), kv.value()));
          }
          Map.Entry<byte[], byte[]> e = want.next();
          if (!Arrays.equals(e.getKey(), kv.key()) || !Arrays.equals(e.getValue(), kv.value())) {
            fail(
                where
                    + ": expected "
                    + line(e.getKey(), e.getValue())
                    + ", got "
                    + line(kv.key(), kv.value()));
          }
          entries++;
          bytes += kv.key().length + kv.value().length;
        }
      }
      if (entries > RUN_ENTRIES) {
        scansOverEntries++;
      }
      if (bytes > RUN_BYTES) {
        scansOverBytes++;
      }
    }

    /** The invariant after every action: the writer and every open view match the model. */
    void checkAll() {
      checkScan("writer", writer, model.applied(), KeyRange.all(), ScanOrder.ASCENDING);
      for (Pinned<KvSnapshot> s : snapshots) {
        checkScan(s.label(), s.view(), s.state(), KeyRange.all(), ScanOrder.ASCENDING);
      }
      for (Pinned<KvReader> r : readers) {
        checkScan(r.label(), r.view(), r.state(), KeyRange.all(), ScanOrder.ASCENDING);
      }
      if (openTransaction != null) {
        checkScan(
            "open transaction",
            openTransaction.txn(),
            openTransaction.sees(),
            KeyRange.all(),
            ScanOrder.DESCENDING);
      }
    }

    <V extends AutoCloseable> void keep(Deque<Pinned<V>> open, Pinned<V> pinned, int max) {
      open.addLast(pinned);
      while (open.size() > max) {
        try {
          open.removeFirst().view().close();
        } catch (Exception e) {
          throw new AssertionError("closing an evicted view failed", e);
        }
      }
    }

    @Override
    public String toString() {
      return "store "
          + name
          + ": "
          + model.applied().size()
          + " keys applied, "
          + model.durable().size()
          + " durable, last seqnum "
          + lastSeqnum
          + ", "
          + snapshots.size()
          + " open snapshots, "
          + readers.size()
          + " pinned readers";
    }

    /**
     * Closes every handle and forgets the in-memory store. Every step runs even when an earlier one
     * fails; the first failure is then thrown (the others attached to it), so a handle that does
     * not close cleanly fails the try.
     */
    @Override
    public void close() {
      List<Throwable> failures = new ArrayList<>();
      if (openTransaction != null) {
        KvTransaction txn = openTransaction.txn();
        openTransaction = null;
        attempt(failures, txn::close);
      }
      snapshots.forEach(s -> attempt(failures, s.view()::close));
      snapshots.clear();
      readers.forEach(r -> attempt(failures, r.view()::close));
      readers.clear();
      attempt(failures, writer::close);
      attempt(failures, () -> compactedSsts = counter.putCount(FaultInjector.COMPACTED));
      attempt(failures, counter::close);
      attempt(failures, () -> ObjectStoreSpec.dropInMemory(name));
      if (!failures.isEmpty()) {
        AssertionError error = new AssertionError("closing " + this + " failed", failures.get(0));
        failures.stream().skip(1).forEach(error::addSuppressed);
        throw error;
      }
    }

    private static void attempt(List<Throwable> failures, Step step) {
      try {
        step.run();
      } catch (Exception | AssertionError e) {
        failures.add(e);
      }
    }

    /** One step of closing. */
    @FunctionalInterface
    private interface Step {
      void run() throws Exception;
    }
  }

  // ------------------------------------------------------------------ actions

  /** A batch of 1 to 5 puts and deletes, applied atomically. */
  static final class WriteBatchAction implements Action.Independent<ModelledStore> {
    @Override
    public Arbitrary<Transformer<ModelledStore>> transformer() {
      return batches(1, 5)
          .map(
              batch ->
                  Transformer.mutate(
                      "write: " + describe(batch),
                      s -> {
                        s.write(batch);
                        ModelledStore.checkGets(
                            "after the write", s.writer, s.model.applied(), batch);
                      }));
    }
  }

  /**
   * A bulk load: one batch of 257 or more consecutive wide keys with values of up to 5 KiB (a few
   * hundred KiB to a few MiB in all), so that scans over them span several native runs. Values come
   * from a generated seed, so that the description stays short and the seed replays them. Then
   * scans the wide keys in both orders.
   */
  static final class BulkLoadAction implements Action.Independent<ModelledStore> {
    @Override
    public Arbitrary<Transformer<ModelledStore>> transformer() {
      return Combinators.combine(
              Arbitraries.integers().between(0, WIDE_KEYS - RUN_ENTRIES - 1),
              Arbitraries.integers().between(RUN_ENTRIES + 1, 600),
              Arbitraries.integers().between(512, 5 << 10),
              Arbitraries.longs())
          .as(
              (start, wanted, maxBytes, seed) -> {
                int count = Math.min(wanted, WIDE_KEYS - start);
                return Transformer.mutate(
                    "bulk load: wide keys "
                        + start
                        + ".."
                        + (start + count - 1)
                        + ", values of 0.."
                        + maxBytes
                        + " bytes from seed "
                        + seed,
                    s -> {
                      SplittableRandom random = new SplittableRandom(seed);
                      List<Mutation> batch = new ArrayList<>(count);
                      for (int i = start; i < start + count; i++) {
                        batch.add(
                            Mutation.put(wide(i), filled(random.nextInt(maxBytes + 1), random)));
                      }
                      s.write(batch);
                      s.checkScan(
                          "after the bulk load",
                          s.writer,
                          s.model.applied(),
                          KeyRange.prefix(new byte[] {WIDE}));
                    });
              });
    }
  }

  /** A bulk delete: one batch deleting a run of 50 to 400 consecutive wide keys. */
  static final class BulkDeleteAction implements Action.Independent<ModelledStore> {
    @Override
    public Arbitrary<Transformer<ModelledStore>> transformer() {
      return Combinators.combine(
              Arbitraries.integers().between(0, WIDE_KEYS - 1),
              Arbitraries.integers().between(50, 400))
          .as(
              (start, wanted) -> {
                int count = Math.min(wanted, WIDE_KEYS - start);
                return Transformer.mutate(
                    "bulk delete: wide keys " + start + ".." + (start + count - 1),
                    s -> {
                      List<Mutation> batch = new ArrayList<>(count);
                      for (int i = start; i < start + count; i++) {
                        batch.add(Mutation.delete(wide(i)));
                      }
                      s.write(batch);
                      ModelledStore.checkGets(
                          "after the bulk delete", s.writer, s.model.applied(), batch);
                    });
              });
    }
  }

  /**
   * A transaction: reads a key, puts and deletes a few keys, reads its own writes and scans through
   * them, then commits.
   */
  static final class TransactionAction implements Action.Independent<ModelledStore> {
    @Override
    public Arbitrary<Transformer<ModelledStore>> transformer() {
      return Combinators.combine(keys(), batches(1, 4), ranges(), orders())
          .as(
              (readKey, writes, range, order) ->
                  Transformer.mutate(
                      "transaction: read "
                          + hex(readKey)
                          + ", "
                          + describe(writes)
                          + ", scan "
                          + describe(range, order)
                          + ", commit",
                      s -> run(s, readKey, writes, range, order)));
    }

    private static void run(
        ModelledStore s, byte[] readKey, List<Mutation> writes, KeyRange range, ScanOrder order) {
      NavigableMap<byte[], byte[]> before = KvStoreModel.frozenCopy(s.model.applied());
      NavigableMap<byte[], byte[]> own = KvStoreModel.overlay(before, writes);
      try (KvTransaction txn = s.writer.begin()) {
        ModelledStore.checkGet("transaction before its writes", txn, before, readKey);
        ModelledStore.buffer(txn, writes);
        ModelledStore.checkGets("transaction reading its own writes", txn, own, writes);
        s.checkScan("transaction scanning its own writes", txn, own, range, order);
        ModelledStore.checkGets("writer before the commit", s.writer, before, writes);
        s.acknowledge(txn.commit(), "commit " + describe(writes));
      }
      s.applied(writes);
      ModelledStore.checkGets("writer after the commit", s.writer, s.model.applied(), writes);
    }
  }

  /**
   * Two overlapping writers: a transaction begins, then another transaction (or a plain batch)
   * commits; the first transaction must commit exactly when the write sets are disjoint.
   */
  static final class OverlappingTransactionsAction implements Action.Independent<ModelledStore> {
    @Override
    public Arbitrary<Transformer<ModelledStore>> transformer() {
      Arbitrary<Boolean> winnerIsPlainWrite = Arbitraries.of(false, true);
      Arbitrary<Boolean> shareAKey = Arbitraries.of(false, true);
      return Combinators.combine(batches(1, 3), batches(1, 3), shareAKey, winnerIsPlainWrite)
          .as(
              (winner, loser, share, plain) -> {
                List<Mutation> second = new ArrayList<>(loser);
                if (share) {
                  // Write a key the winner writes too (a delete: conflicts ignore the kind).
                  second.add(Mutation.delete(winner.get(0).key()));
                }
                return Transformer.<ModelledStore>mutate(
                    (plain ? "overlapping: plain write " : "overlapping: transaction ")
                        + describe(winner)
                        + " commits while transaction "
                        + describe(second)
                        + " is open",
                    s -> run(s, winner, second, plain));
              });
    }

    private static void run(
        ModelledStore s, List<Mutation> winner, List<Mutation> second, boolean plain) {
      NavigableMap<byte[], byte[]> atBegin = KvStoreModel.frozenCopy(s.model.applied());
      NavigableMap<byte[], byte[]> secondOwn = KvStoreModel.overlay(atBegin, second);
      boolean conflict =
          KvStoreModel.keysOf(winner).keySet().stream()
              .anyMatch(KvStoreModel.keysOf(second)::containsKey);
      try (KvTransaction loser = s.writer.begin()) {
        KvTransaction first = plain ? null : s.writer.begin();
        try {
          ModelledStore.buffer(loser, second);
          if (first == null) {
            s.write(winner);
          } else {
            ModelledStore.buffer(first, winner);
            s.acknowledge(first.commit(), "first commit " + describe(winner));
            s.applied(winner);
          }
        } finally {
          if (first != null) {
            first.close();
          }
        }
        // Snapshot isolation: the open transaction still sees the state when it began (plus its
        // own writes), not the winner's commit; and reading the winner's keys is no conflict.
        ModelledStore.checkGets(
            "open transaction after the other commit", loser, secondOwn, winner);
        Statistics.label("overlapping writers").collect(conflict ? "conflict" : "both commit");
        if (conflict) {
          assertThrows(
              KvTransactionConflictException.class,
              loser::commit,
              "write sets overlap: the second commit must lose");
          assertThrows(KvClosedException.class, () -> loser.get(winner.get(0).key()));
        } else {
          WriteReceipt receipt;
          try {
            receipt = loser.commit();
          } catch (KvTransactionConflictException e) {
            throw new AssertionError("disjoint write sets must both commit", e);
          }
          s.acknowledge(receipt, "second commit " + describe(second));
          s.applied(second);
        }
      }
      ModelledStore.checkGets("writer after both commits", s.writer, s.model.applied(), winner);
      ModelledStore.checkGets("writer after both commits", s.writer, s.model.applied(), second);
    }
  }

  /**
   * Begins a transaction and buffers a few writes, leaving it open while other actions run (the
   * invariant reads through it after each of them).
   */
  static final class BeginOpenTransactionAction implements Action.Independent<ModelledStore> {
    @Override
    public boolean precondition(ModelledStore s) {
      return s.openTransaction == null;
    }

    @Override
    public Arbitrary<Transformer<ModelledStore>> transformer() {
      return batches(1, 4)
          .map(
              writes ->
                  Transformer.mutate(
                      "begin open transaction: " + describe(writes),
                      s -> {
                        KvTransaction txn = s.writer.begin();
                        ModelledStore.buffer(txn, writes);
                        s.openTransaction =
                            new ModelledStore.OpenTransaction(
                                txn,
                                KvStoreModel.overlay(s.model.applied(), writes),
                                writes,
                                new TreeMap<>(Arrays::compareUnsigned));
                      }));
    }
  }

  /**
   * Commits the transaction left open: it wins exactly when no write committed since it began
   * touched one of its keys.
   */
  static final class CommitOpenTransactionAction extends Action.JustMutate<ModelledStore> {
    @Override
    public boolean precondition(ModelledStore s) {
      return s.openTransaction != null;
    }

    @Override
    public void mutate(ModelledStore s) {
      ModelledStore.OpenTransaction open = s.openTransaction;
      s.openTransaction = null;
      List<Mutation> writes = open.writes();
      boolean conflict =
          KvStoreModel.keysOf(writes).keySet().stream().anyMatch(open.writtenSince()::containsKey);
      try (KvTransaction txn = open.txn()) {
        ModelledStore.checkGets("open transaction before its commit", txn, open.sees(), writes);
        Statistics.label("open transaction").collect(conflict ? "conflict" : "commits");
        if (conflict) {
          assertThrows(
              KvTransactionConflictException.class,
              txn::commit,
              "a write since it began touched its keys: the commit must lose");
        } else {
          WriteReceipt receipt;
          try {
            receipt = txn.commit();
          } catch (KvTransactionConflictException e) {
            throw new AssertionError("no write since it began touched its keys", e);
          }
          s.acknowledge(receipt, "commit of the open transaction " + describe(writes));
          s.applied(writes);
        }
      }
      ModelledStore.checkGets("writer after the commit", s.writer, s.model.applied(), writes);
    }

    @Override
    public String description() {
      return "commit open transaction";
    }
  }

  /** A point read of one key. */
  static final class GetAction implements Action.Independent<ModelledStore> {
    @Override
    public Arbitrary<Transformer<ModelledStore>> transformer() {
      return keys()
          .map(
              key ->
                  Transformer.mutate(
                      "get: " + hex(key),
                      s -> ModelledStore.checkGet("writer", s.writer, s.model.applied(), key)));
    }
  }

  /** A scan of a random range, ascending and descending. */
  static final class ScanAction implements Action.Independent<ModelledStore> {
    @Override
    public Arbitrary<Transformer<ModelledStore>> transformer() {
      return ranges()
          .map(
              range ->
                  Transformer.mutate(
                      "scan: " + range,
                      s -> s.checkScan("writer", s.writer, s.model.applied(), range)));
    }
  }

  /**
   * A snapshot, then 1 to 3 more batches, then reads through the snapshot: it must still show the
   * state it was taken at. The snapshot stays open for later checks (the invariant).
   */
  static final class SnapshotAction implements Action.Independent<ModelledStore> {
    @Override
    public Arbitrary<Transformer<ModelledStore>> transformer() {
      return Combinators.combine(batches(1, 5).list().ofMinSize(1).ofMaxSize(3), ranges())
          .as(
              (later, range) ->
                  Transformer.mutate(
                      "snapshot: then writes "
                          + later.stream()
                              .map(KvStoreModelTest::describe)
                              .collect(Collectors.joining(" "))
                          + ", then read it; scan "
                          + range,
                      s -> run(s, later, range)));
    }

    private static void run(ModelledStore s, List<List<Mutation>> later, KeyRange range) {
      NavigableMap<byte[], byte[]> frozen = KvStoreModel.frozenCopy(s.model.applied());
      KvSnapshot snapshot = s.writer.snapshot();
      String label = "snapshot after seqnum " + s.lastSeqnum;
      s.keep(s.snapshots, new ModelledStore.Pinned<>(label, snapshot, frozen), MAX_OPEN_SNAPSHOTS);
      for (List<Mutation> batch : later) {
        s.write(batch);
      }
      for (List<Mutation> batch : later) {
        ModelledStore.checkGets(label, snapshot, frozen, batch);
        ModelledStore.checkGets("writer", s.writer, s.model.applied(), batch);
      }
      s.checkScan(label, snapshot, frozen, range);
      s.checkScan(label, snapshot, frozen, KeyRange.all());
    }
  }

  /** An explicit WAL flush: everything applied becomes durable. */
  static final class FlushWalAction extends Action.JustMutate<ModelledStore> {
    @Override
    public void mutate(ModelledStore s) {
      s.writer.flushWal();
      long durable = s.writer.durableSeqnum();
      assertTrue(
          durable >= s.lastSeqnum,
          () -> "after flushWal the durable seqnum " + durable + " is below " + s.lastSeqnum);
      s.allDurable();
    }

    @Override
    public String description() {
      return "flushWal";
    }
  }

  /**
   * A clean close and a new writer on the same store. Close flushes what is in memory, so the whole
   * applied state survives. Snapshots of the old writer are closed with it.
   */
  static final class ReopenAction extends Action.JustMutate<ModelledStore> {
    @Override
    public void mutate(ModelledStore s) {
      s.writer.close();
      for (ModelledStore.Pinned<KvSnapshot> snapshot : s.snapshots) {
        assertThrows(
            KvClosedException.class,
            () -> snapshot.view().get(new byte[] {0}),
            snapshot.label() + " outlived its writer");
        snapshot.view().close();
      }
      s.snapshots.clear();
      if (s.openTransaction != null) {
        KvTransaction txn = s.openTransaction.txn();
        assertThrows(
            KvClosedException.class, txn::commit, "an open transaction outlived its writer");
        txn.close();
        s.openTransaction = null;
      }
      s.allDurable();
      s.writer = s.provider.openWriter();
      s.reopens++;
      s.checkScan("reopened writer", s.writer, s.model.applied(), KeyRange.all());
    }

    @Override
    public String description() {
      return "reopen";
    }
  }

  /**
   * A checkpoint and a reader pinned at it: it shows the durable state of that moment, and keeps
   * showing it (the invariant checks it after every later action).
   */
  static final class CheckpointAction implements Action.Independent<ModelledStore> {
    @Override
    public Arbitrary<Transformer<ModelledStore>> transformer() {
      return ranges()
          .map(
              range ->
                  Transformer.mutate(
                      "checkpoint: open a reader pinned at it, scan " + range, s -> run(s, range)));
    }

    /**
     * The checkpoint holds one state of the store: at least what was durable before it was taken,
     * and possibly more, since a WAL or memtable flush started by earlier writes can land while it
     * is taken (after the model last learned the durable seqnum). So the reader must show exactly
     * one of the applied states from the durable one on; the state it shows is durable from then
     * on, and is what it must keep showing.
     */
    private static void run(ModelledStore s, KeyRange range) {
      s.learnDurable();
      List<Map.Entry<Long, NavigableMap<byte[], byte[]>>> candidates = s.statesFromDurable();
      CheckpointId checkpoint = s.writer.createCheckpoint(null);
      KvReader reader = s.provider.openReader(ReaderMode.pinned(checkpoint));
      String label =
          "reader pinned at checkpoint " + checkpoint.id() + " (seqnum " + s.lastSeqnum + ")";
      NavigableMap<byte[], byte[]> expected;
      try {
        expected =
            s.stateShownBy(label, reader, candidates, "checkpoint past the known durable state");
      } catch (AssertionError none) {
        reader.close();
        throw none;
      }
      s.keep(s.readers, new ModelledStore.Pinned<>(label, reader, expected), MAX_OPEN_READERS);
      s.checkScan(label, reader, expected, range);
    }
  }

  /**
   * A new latest-following reader sees the durable state when it opens: the known durable one, or a
   * later applied state a flush already under way made durable (as for a checkpoint).
   */
  static final class LatestReaderAction implements Action.Independent<ModelledStore> {
    @Override
    public Arbitrary<Transformer<ModelledStore>> transformer() {
      return ranges()
          .map(
              range ->
                  Transformer.mutate("latest reader: open one, scan " + range, s -> run(s, range)));
    }

    private static void run(ModelledStore s, KeyRange range) {
      s.learnDurable();
      List<Map.Entry<Long, NavigableMap<byte[], byte[]>>> candidates = s.statesFromDurable();
      try (KvReader reader = s.provider.openReader(ReaderMode.followLatest())) {
        NavigableMap<byte[], byte[]> shown =
            s.stateShownBy(
                "new latest reader",
                reader,
                candidates,
                "latest reader past the known durable state");
        s.checkScan("new latest reader", reader, shown, KeyRange.all(), ScanOrder.ASCENDING);
        s.checkScan("new latest reader", reader, shown, range);
      } catch (KvException e) {
        fail("opening a latest-following reader failed", e);
      }
    }
  }
}
