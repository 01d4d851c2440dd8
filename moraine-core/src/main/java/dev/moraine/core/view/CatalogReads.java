package dev.moraine.core.view;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.ClosedException;
import dev.moraine.core.catalog.CorruptionException;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.core.keyspace.key.ChangelogKey;
import dev.moraine.core.keyspace.key.Key;
import dev.moraine.core.keyspace.key.KeyCodec;
import dev.moraine.core.keyspace.key.SnapshotKey;
import dev.moraine.core.keyspace.key.SysKey;
import dev.moraine.core.keyspace.proto.ChangelogValue;
import dev.moraine.core.keyspace.proto.HeadValue;
import dev.moraine.core.keyspace.proto.MigrationValue;
import dev.moraine.core.keyspace.proto.SnapshotValue;
import dev.moraine.core.keyspace.value.ValueCodec;
import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReadView;
import dev.moraine.core.lake.FormatCheck;
import dev.moraine.core.lake.KvErrors;
import dev.moraine.ducklake.changes.ChangesMade;
import dev.moraine.ducklake.changes.ChangesMadeParseException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The read side shared by the writer and the read-only catalog: the head, snapshot views at the
 * head, by id and by time, the recent head views and the bounded cache of other views (RFC 0003 §3,
 * §5).
 *
 * <p>Concurrency: {@code headView} only ever moves to a view with a higher {@code batch_seq} (a
 * compare-and-set loop), so a slow caller cannot put an older head view back; a caller may still be
 * handed the view it built even if a newer one was installed meanwhile, which is fine, since every
 * view is a correct snapshot. The Caffeine cache and {@link RecentHeadViews} are thread-safe on
 * their own; two callers building a view for the same id both build one and either may end up kept,
 * and both are correct. Nothing here holds a lock while reading the store.
 */
public final class CatalogReads implements ViewLoader {
  private static final byte[] HEAD_KEY = KeyCodec.encode(SysKey.HEAD);
  private static final byte[] MIGRATION_KEY = KeyCodec.encode(SysKey.MIGRATION);

  /** The changelog window of RFC 0002 §12.1: a gap longer than this cannot be replayed. */
  private static final long CHANGELOG_WINDOW = 64;

  private final ReadSource source;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicReference<SnapshotView> headView = new AtomicReference<>();
  private final Cache<Long, SnapshotView> views;
  private final RecentHeadViews recentHeads;
  private final boolean writer;
  // Counts the expiries this catalog has landed: raised by forgetSnapshots before it forgets, read
  // by cache() around its put (see there for why that keeps expired views out of the cache).
  private final AtomicLong expiries = new AtomicLong();

  public CatalogReads(ReadSource source, CatalogOptions options) {
    this(source, options, false);
  }

  /**
   * @param writer whether this is a writer catalog's read model: its head view then follows every
   *     commit of the store, all of which are its own (the store fences any other writer)
   */
  public CatalogReads(ReadSource source, CatalogOptions options, boolean writer) {
    this.source = source;
    this.writer = writer;
    // Eviction upkeep runs on the thread that touched the cache: it is a few map operations, and
    // handing it to the common fork-join pool (Caffeine's default) woke a pool thread per commit,
    // which cost more than the upkeep itself (BENCHMARK.md, "Where the process CPU goes").
    this.views =
        Caffeine.newBuilder()
            .maximumSize(options.snapshotCacheSize())
            .executor(Runnable::run)
            .build();
    this.recentHeads = new RecentHeadViews(options.snapshotCacheSize());
  }

  /** Runs one consistent load, translating store and codec errors; refuses when closed. */
  @Override
  public <T> T load(String what, Function<KvReadView, T> body) {
    ensureOpen();
    return KvErrors.translate(what, () -> source.consistent(body));
  }

  public void ensureOpen() {
    if (closed.get()) {
      throw new ClosedException("the catalog is closed", null);
    }
  }

  public void close() {
    if (closed.compareAndSet(false, true)) {
      views.invalidateAll();
      recentHeads.clear();
      headView.set(null);
    }
  }

  /**
   * Forgets the views this catalog keeps of snapshots an expiry has just removed, so that asking
   * for one again answers {@code SNAPSHOT_EXPIRED}. A view a caller already holds notices on its
   * next load ({@link SnapshotView}).
   */
  public void forgetSnapshots(List<Long> snapshotIds) {
    expiries.incrementAndGet();
    for (long id : snapshotIds) {
      recentHeads.remove(id);
      views.invalidate(id);
    }
  }

  /**
   * Whether a load through {@code view} must check that its snapshot is still there. A writer
   * catalog's head view stands at the store's head (every commit is its own and moves it), whose
   * snapshot an expiry never removes: only its other views are checked. A read-only catalog's head
   * view may lag behind commits of the writer, which can expire its snapshot: every view is
   * checked.
   */
  @Override
  public boolean mayBeExpired(SnapshotView view) {
    if (!writer) {
      return true;
    }
    SnapshotView held = headView.get();
    return held == null || view.head() == null || !held.head().equals(view.head());
  }

  public Head head() {
    return load("reading the head", v -> toHead(readHead(v)));
  }

  public SnapshotView snapshot() {
    SnapshotView view =
        load(
            "reading the head snapshot",
            v -> {
              HeadValue head = readHead(v);
              SnapshotView held = headView.get();
              if (held != null && held.head().equals(toHead(head))) {
                return held;
              }
              SnapshotValue record = readSnapshot(v, head.getSnapshotId());
              if (record == null) {
                throw new CorruptionException(
                    "the head names snapshot "
                        + Long.toUnsignedString(head.getSnapshotId())
                        + " but its record is missing");
              }
              return new SnapshotView(this, record, toHead(head), carried(v, held, head));
            });
    install(view);
    return view;
  }

  /**
   * The view at {@code head}, whose snapshot record the caller read as {@code record}: the held
   * head view when it stands at exactly that head, otherwise a new one (carrying what the held view
   * loaded, refreshed through the changelogs in between), installed as the head view. The commit
   * path calls this with the head it read through its store transaction, so the premise it hands
   * the closure is the state that transaction's conflict check protects.
   */
  public SnapshotView viewAtHead(HeadValue head, SnapshotValue record) {
    ensureOpen();
    SnapshotView atHead = heldAt(head);
    if (atHead != null) {
      return atHead;
    }
    SnapshotView held = headView.get();
    SnapshotView view =
        load(
            "reading the head snapshot",
            v -> new SnapshotView(this, record, toHead(head), carried(v, held, head)));
    install(view);
    return view;
  }

  /**
   * The held head view when it stands at exactly {@code head} (snapshot id and batch sequence),
   * else null. Its snapshot record is then the head's snapshot record as the store holds it: a
   * snapshot's record is never rewritten, and the head's own cannot have been expired.
   */
  public SnapshotView heldAt(HeadValue head) {
    SnapshotView held = headView.get();
    return held != null && held.head().equals(toHead(head)) ? held : null;
  }

  /**
   * Installs the head view that a commit of this catalog leaves, once its batch has landed, built
   * from what staging wrote instead of read back from the store. {@code premise} is the view the
   * commit's closure ran against, at the head the commit's store transaction read; the batch
   * landed, so no other batch came between that head and the batch's own (RFC 0004 §4.1), and the
   * state at the new head is the premise's with the batch's entity records put in place ({@link
   * LandedCommit#carry}): exactly what {@link #carried} would re-read through the batch's
   * changelog, without the reads.
   *
   * <p>Does nothing when the commit cannot be carried ({@link LandedCommit#carry} says when): the
   * next commit's premise then comes from {@link #viewAtHead} as before. Installing follows the
   * same rule as every other view: the head view only moves to a higher batch sequence, so a commit
   * of another thread that landed later and installed its view first is not overwritten.
   */
  public void installLanded(SnapshotView premise, LandedCommit landed) {
    if (closed.get()) {
      return;
    }
    ViewState state = landed.carry(premise);
    if (state != null) {
      install(new SnapshotView(this, landed.record(), landed.head(), state));
    }
  }

  /**
   * Installs, as the head view, what a batch of commits left: {@code folded} is the premise the
   * batch's members were staged up to, standing at the batch's head, whose records the batch has
   * now written to the store. The view installed reads the store from here on.
   */
  public void installBatchHead(SnapshotView folded) {
    if (!closed.get() && folded.head() != null) {
      install(new SnapshotView(this, folded.record(), folded.head(), folded.state()));
    }
  }

  /**
   * Makes {@code view} the head view unless a newer one is already there, and then keeps it among
   * the recent head views by id.
   */
  private void install(SnapshotView view) {
    SnapshotView now =
        headView.accumulateAndGet(
            view,
            (current, candidate) ->
                current == null
                        || Long.compareUnsigned(
                                candidate.head().batchSeq(), current.head().batchSeq())
                            > 0
                    ? candidate
                    : current);
    if (now == view) {
      recentHeads.add(view);
    }
  }

  /**
   * What the new head view can keep of {@code held}: its state with every {@code current} key the
   * commits in between wrote re-read (a read per changed entity it knows, none per unchanged one),
   * when their changelogs cover the gap exactly (one per minted snapshot, and {@code batch_seq}
   * grown by as many as {@code snapshot_id}: RFC 0002 §12.6); otherwise nothing.
   */
  private static ViewState carried(KvReadView v, SnapshotView held, HeadValue head) {
    if (held == null) {
      return ViewState.EMPTY;
    }
    long from = held.head().snapshotId();
    long gap = head.getSnapshotId() - from;
    if (gap <= 0 || gap > CHANGELOG_WINDOW || head.getBatchSeq() - held.head().batchSeq() != gap) {
      return ViewState.EMPTY;
    }
    List<KeyBytes> changed = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    for (long id = from + 1; id <= head.getSnapshotId(); id++) {
      keys.add(KeyCodec.encode(new ChangelogKey(id)));
    }
    List<byte[]> values = v.getAll(keys);
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i) == null) {
        return ViewState.EMPTY;
      }
      Key key = new ChangelogKey(from + 1 + i);
      for (var k : ValueCodec.decode(key, values.get(i), ChangelogValue.class).getKeysList()) {
        changed.add(new KeyBytes(k.toByteArray()));
      }
    }
    // The changed entities are re-read at the new head through the same consistent view; each is a
    // point read of its current record (a version live at the head is always the current one).
    long at = head.getSnapshotId();
    ViewState refreshed =
        held.state().refreshed(changed, entity -> EntityVersions.at(v, entity, at));
    if (refreshed.inlined().isEmpty()) {
      return refreshed;
    }
    // Inline writes name no current key, so the changelogs do not show them: the snapshot records
    // of the gap do. A table whose inlined rows changed there loses its files and inlined rows
    // together (a flush changes both), and they are loaded afresh when next asked for.
    return refreshed.withoutTableFiles(inlineChanged(v, from, head.getSnapshotId(), refreshed));
  }

  /**
   * The tables of {@code state} whose inlined rows the snapshots {@code from + 1 .. to} changed, by
   * their {@code changes_made}; every table of {@code state} when a record is missing or its
   * changes cannot be read.
   */
  private static List<Long> inlineChanged(KvReadView v, long from, long to, ViewState state) {
    List<byte[]> keys = new ArrayList<>();
    for (long id = from + 1; id <= to; id++) {
      keys.add(KeyCodec.encode(new SnapshotKey(id)));
    }
    List<Long> tables = new ArrayList<>();
    List<byte[]> values = v.getAll(keys);
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i) == null) {
        return List.copyOf(state.inlined().keySet());
      }
      Key key = new SnapshotKey(from + 1 + i);
      List<Long> changed =
          inlineTables(ValueCodec.decode(key, values.get(i), SnapshotValue.class).getChangesMade());
      if (changed == null) {
        return List.copyOf(state.inlined().keySet());
      }
      tables.addAll(changed);
    }
    return tables;
  }

  /**
   * The tables whose inlined rows a snapshot with these {@code changes_made} changed, or null when
   * the text cannot be read (the caller then treats every table as changed).
   */
  private static List<Long> inlineTables(String changesMade) {
    try {
      return LandedCommit.inlineTablesOf(ChangesMade.parse(changesMade));
    } catch (ChangesMadeParseException e) {
      return null;
    }
  }

  /** The view of snapshot {@code snapshotId} this catalog keeps (a recent head view, or cached). */
  private SnapshotView cachedView(long snapshotId) {
    SnapshotView recent = recentHeads.get(snapshotId);
    return recent != null ? recent : views.getIfPresent(snapshotId);
  }

  public SnapshotView snapshotAt(long snapshotId) {
    SnapshotView cached = cachedView(snapshotId);
    if (cached != null) {
      ensureOpen();
      return cached;
    }
    long generation = expiries.get();
    SnapshotView view =
        load(
            "reading snapshot " + Long.toUnsignedString(snapshotId),
            v -> {
              HeadValue head = readHead(v);
              if (Long.compareUnsigned(snapshotId, head.getSnapshotId()) > 0) {
                throw new NotFoundException(
                    ErrorCode.NOT_FOUND,
                    "snapshot "
                        + Long.toUnsignedString(snapshotId)
                        + " does not exist (the head is "
                        + Long.toUnsignedString(head.getSnapshotId())
                        + ")");
              }
              SnapshotValue record = readSnapshot(v, snapshotId);
              if (record == null) {
                throw new NotFoundException(
                    ErrorCode.SNAPSHOT_EXPIRED,
                    "snapshot "
                        + Long.toUnsignedString(snapshotId)
                        + " has been expired (the head is "
                        + Long.toUnsignedString(head.getSnapshotId())
                        + ")");
              }
              return new SnapshotView(this, record, null, ViewState.EMPTY);
            });
    cache(generation, snapshotId, view);
    return view;
  }

  /**
   * Keeps {@code view}, loaded after {@code generation} was read, in the cache, unless an expiry
   * ran meanwhile (its snapshot may be gone, and forgetSnapshots may have run before the put, so
   * nothing else would take it out). forgetSnapshots raises the count before it forgets; so either
   * the count read here after the put has moved and the view is taken out again, or that expiry's
   * forgetting comes after the put and takes it out. A view handed to the caller either way was
   * correct when loaded, and its own loads check for expiry ({@link #mayBeExpired}).
   */
  private void cache(long generation, long snapshotId, SnapshotView view) {
    views.put(snapshotId, view);
    if (expiries.get() != generation) {
      views.invalidate(snapshotId);
    }
  }

  /**
   * The view at the latest snapshot whose time is at or before {@code instant}. Snapshot times do
   * not decrease with the id (each commit stamps the clock after the one before it), so a binary
   * search over ids finds it in a logarithmic number of one-record range reads; expired ids are
   * skipped by reading the first record at or after each probe.
   */
  public SnapshotView snapshotAsOf(Instant instant) {
    if (instant == null) {
      throw new InvalidArgumentException("instant must not be null");
    }
    long micros = toMicros(instant);
    long generation = expiries.get();
    SnapshotValue found =
        load(
            "finding the snapshot as of " + instant,
            v -> {
              long lo = 0;
              long hi = readHead(v).getSnapshotId();
              SnapshotValue best = null;
              SnapshotValue first = null;
              while (Long.compareUnsigned(lo, hi) <= 0) {
                long mid = lo + (hi - lo) / 2;
                SnapshotValue probe = firstAtOrAfter(v, mid, hi);
                if (probe == null) {
                  if (mid == 0) {
                    break;
                  }
                  hi = mid - 1;
                  continue;
                }
                if (first == null
                    || Long.compareUnsigned(probe.getSnapshotId(), first.getSnapshotId()) < 0) {
                  first = probe;
                }
                if (probe.getSnapshotTimeMicros() <= micros) {
                  best = probe;
                  lo = probe.getSnapshotId() + 1;
                } else {
                  if (mid == 0) {
                    break;
                  }
                  hi = mid - 1;
                }
              }
              if (best == null) {
                boolean expired = first == null || first.getSnapshotId() != 0;
                throw new NotFoundException(
                    expired ? ErrorCode.SNAPSHOT_EXPIRED : ErrorCode.NOT_FOUND,
                    "no snapshot at or before "
                        + instant
                        + (expired
                            ? ": the snapshots of that time have been expired"
                            : ": the catalog's first snapshot is later"));
              }
              return best;
            });
    SnapshotView cached = cachedView(found.getSnapshotId());
    if (cached != null) {
      return cached;
    }
    SnapshotView view = new SnapshotView(this, found, null, ViewState.EMPTY);
    cache(generation, found.getSnapshotId(), view);
    return view;
  }

  private static long toMicros(Instant instant) {
    try {
      return Math.addExact(
          Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000L);
    } catch (ArithmeticException e) {
      return instant.isBefore(Instant.EPOCH) ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  private static SnapshotValue firstAtOrAfter(KvReadView v, long id, long last) {
    byte[] start = KeyCodec.encode(new SnapshotKey(id));
    byte[] end = last == -1L ? new byte[] {0x04} : KeyCodec.encode(new SnapshotKey(last + 1));
    try (KvIterator it = v.scan(KeyRange.of(start, end))) {
      if (!it.hasNext()) {
        return null;
      }
      KeyValue kv = it.next();
      return ValueCodec.decode(KeyCodec.decode(kv.key()), kv.value(), SnapshotValue.class);
    }
  }

  /**
   * The head, refusing a store where a migration has started since it was opened (the batch that
   * starts one restamps the head, RFC 0002 §12.2).
   */
  public static HeadValue readHead(KvReadView v) {
    List<byte[]> found = v.getAll(List.of(HEAD_KEY, MIGRATION_KEY));
    if (found.get(1) != null) {
      FormatCheck.refuseMigration(
          ValueCodec.decode(SysKey.MIGRATION, found.get(1), MigrationValue.class), null);
    }
    if (found.get(0) == null) {
      throw new CorruptionException("the store has a format stamp but no head record (sys/head)");
    }
    return ValueCodec.decode(SysKey.HEAD, found.get(0), HeadValue.class);
  }

  public static SnapshotValue readSnapshot(KvReadView v, long id) {
    SnapshotKey key = new SnapshotKey(id);
    byte[] bytes = v.get(KeyCodec.encode(key));
    return bytes == null ? null : ValueCodec.decode(key, bytes, SnapshotValue.class);
  }

  static Head toHead(HeadValue h) {
    return new Head(h.getSnapshotId(), h.getBatchSeq());
  }

  /** How many views the cache holds now (for tests). */
  long cachedViews() {
    views.cleanUp();
    return views.estimatedSize();
  }
}
