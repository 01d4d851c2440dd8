package dev.moraine.store.soak;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.SchemaInfo;
import dev.moraine.core.kv.KvStore;
import dev.moraine.store.ObjectStoreSpec;
import dev.moraine.store.SlateStoreProvider;
import dev.moraine.store.StoreConfig;
import dev.moraine.store.StoreSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the writer that is killed and the harness that checks its lake agree on: how the lake is
 * opened, its two tables, and what one soak commit writes.
 *
 * <p>Every soak commit is named by a {@link Token} (cycle, committer thread, the thread's sequence
 * number) and writes three records that must land together: a data file in {@value #EVENTS} whose
 * path and record count follow from the token, a one-row data file in {@value #LEDGER} whose path
 * follows from it too, and commit information whose message is the token and whose extra
 * information says whether the commit was alone or a member of a group ({@link #SINGLE}, or {@code
 * group/<first seq>/<size>}). A snapshot holding some of them and not the others is a partial
 * commit.
 */
final class SoakLake {
  static final String SCHEMA = "soak";
  static final String EVENTS = "events";
  static final String LEDGER = "ledger";
  static final String AUTHOR = "soak-writer";
  static final String SINGLE = "single";

  /** The snapshots the lake holds before the first soak commit: the bootstrap and the tables. */
  static final long SETUP_HEAD = 1;

  private SoakLake() {}

  /** The store of a lake in {@code directory}, the database at its root. */
  static SlateStoreProvider provider(Path directory) {
    return new SlateStoreProvider(
        StoreConfig.of(ObjectStoreSpec.localDirectory(directory), "")
            .withSettings(
                StoreSettings.defaults()
                    .withFlushTimerOff()
                    .withOperationTimeout(Duration.ofSeconds(120))));
  }

  static CatalogOptions options(Duration flushSpacing) {
    return CatalogOptions.defaults().withFlushSpacing(flushSpacing);
  }

  /** The ids of the two tables. */
  record Tables(long events, long ledger) {}

  /** Creates the lake in an empty directory: its schema and both tables in one commit. */
  static Tables create(Path directory) {
    try (KvStore store = provider(directory).openWriter();
        Catalog catalog = Catalog.open(store, options(Duration.ZERO))) {
      List<ColumnDef> columns = List.of(ColumnDef.of("id", "int64"));
      long[] ids = new long[2];
      long snapshot =
          catalog.commit(
              tx -> {
                long schema = tx.createSchema(SCHEMA);
                ids[0] = tx.createTable(schema, EVENTS, columns);
                ids[1] = tx.createTable(schema, LEDGER, columns);
              });
      if (snapshot != SETUP_HEAD) {
        throw new IllegalStateException("the tables landed at snapshot " + snapshot);
      }
      return new Tables(ids[0], ids[1]);
    }
  }

  /** The ids of the two tables, looked up by name in a lake {@link #create} made. */
  static Tables tables(Catalog catalog) {
    var head = catalog.snapshot();
    long schema = head.schemaByName(SCHEMA).map(SchemaInfo::schemaId).orElseThrow();
    return new Tables(
        head.tableByName(schema, EVENTS).orElseThrow().tableId(),
        head.tableByName(schema, LEDGER).orElseThrow().tableId());
  }

  /** What one soak commit writes; {@code shape} is {@link #SINGLE} or {@link #groupShape}. */
  static CommitBody body(Tables tables, Token token, String shape) {
    return tx -> {
      tx.registerDataFile(
          tables.events(),
          NewDataFile.parquet(
              token.eventsPath(), token.eventRecords(), 1_000 + 10L * token.eventRecords(), 100));
      tx.registerDataFile(tables.ledger(), NewDataFile.parquet(token.ledgerPath(), 1, 64, 16));
      tx.setCommitInfo(AUTHOR, token.text(), shape);
    };
  }

  /**
   * The extra information of the members of a group whose first member has sequence {@code first}.
   */
  static String groupShape(int first, int size) {
    return "group/" + first + "/" + size;
  }

  private static final Pattern GROUP = Pattern.compile("group/(\\d+)/(\\d+)");

  /** The first sequence number and size of a group shape, or null if {@code shape} is not one. */
  static int[] parseGroup(String shape) {
    Matcher m = GROUP.matcher(shape);
    return m.matches()
        ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))}
        : null;
  }

  /** The name of one soak commit: cycle, committer thread, and the thread's sequence number. */
  record Token(int cycle, int thread, int seq) {
    private static final Pattern TEXT = Pattern.compile("soak/(\\d+)/(\\d+)/(\\d+)");

    /** The token in {@code text}, or null if {@code text} is not one. */
    static Token parse(String text) {
      Matcher m = TEXT.matcher(text);
      if (!m.matches()) {
        return null;
      }
      return new Token(
          Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }

    String text() {
      return "soak/" + cycle + "/" + thread + "/" + seq;
    }

    String eventsPath() {
      return "c" + cycle + "/w" + thread + "/s" + seq + ".parquet";
    }

    String ledgerPath() {
      return "c" + cycle + "/w" + thread + "/s" + seq + ".ledger.parquet";
    }

    /** 1 to 9 rows, varying from commit to commit so that a misplaced row range shows. */
    long eventRecords() {
      return 1 + Math.floorMod(cycle * 31 + thread * 7 + seq, 9);
    }
  }
}
