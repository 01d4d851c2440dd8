package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.Catalog;
import dev.moraine.core.catalog.CatalogOptions;
import dev.moraine.core.catalog.CatalogSnapshot;
import dev.moraine.core.catalog.ReadOnlyCatalog;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.DataFileInfo;
import dev.moraine.core.catalog.model.DeleteFileInfo;
import dev.moraine.core.catalog.model.FlushDeleteFile;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.InlinedRows;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.dump.CatalogDump;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Views of snapshots taken before a flush of inlined data read the same rows after it lands (RFC
 * 0003 §3.3.2): a flush deletes the chunks it drains and registers a file backdated into those
 * snapshots' past, so a view must read a table's files and inlined rows together and keep them.
 * Checked on real SlateDB for the writer's own views by id, its head view, views read only in part
 * before the flush, a reader's views, and the dump.
 */
class TimeTravelAcrossFlushTest {

  private static List<Object> row(long a) {
    List<Object> r = new ArrayList<>();
    r.add(a);
    return r;
  }

  /**
   * Table 1 (an int64 column): a 20-row data file at 2, rows 20-21 inlined at 3, row 22 at 4, row
   * 21 deleted inline at 5. Returns the head (5).
   */
  private static long history(CommitLake lake) {
    lake.catalog.commit(tx -> tx.createTable(0, "t", List.of(ColumnDef.of("a", "int64"))));
    lake.catalog.commit(tx -> tx.registerDataFile(1, NewDataFile.parquet("f", 20, 100, 10)));
    lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(100), row(101))));
    lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(102))));
    return lake.catalog.commit(tx -> tx.deleteRowInline(1, 21));
  }

  /** Everything a view says of table 1's rows: its files, delete files and inlined rows. */
  private static String rowsOf(CatalogSnapshot s) {
    List<String> out = new ArrayList<>();
    for (DataFileInfo f : s.dataFiles(1)) {
      out.add("file " + f.path() + " @" + f.rowIdStart().orElse(-1) + "+" + f.recordCount());
    }
    for (DeleteFileInfo d : s.deleteFiles(1)) {
      out.add("deletes " + d.deleteCount() + " of file " + d.dataFileId());
    }
    for (InlinedRows.Row r : s.inlinedRows(1).rows()) {
      out.add("inlined " + r.rowId() + " " + r.values());
    }
    return String.join("; ", out);
  }

  /** Row ids the view holds somewhere: inlined, or inside a file's row range. */
  private static TreeSet<Long> coveredRowIds(CatalogSnapshot s) {
    TreeSet<Long> ids = new TreeSet<>();
    s.inlinedRows(1).rows().forEach(r -> ids.add(r.rowId()));
    for (DataFileInfo f : s.dataFiles(1)) {
      for (long r = 0; r < f.recordCount(); r++) {
        ids.add(f.rowIdStart().orElseThrow() + r);
      }
    }
    return ids;
  }

  /** The dump of one snapshot, without the head it names (which the flush moves). */
  private static String dump(ReadOnlyCatalog catalog, long snapshotId) {
    StringBuilder out = new StringBuilder();
    CatalogDump.writeAt(catalog, snapshotId, out);
    return out.toString().replaceFirst("\"head\":[0-9]+", "\"head\":_");
  }

  @Test
  void viewsLoadedBeforeAFlushReadTheSameRowsAfterIt() {
    try (CommitLake lake = new CommitLake();
        ReadOnlyCatalog reader = Catalog.openReadOnly(lake.store, CatalogOptions.defaults())) {
      long head = history(lake);
      CatalogSnapshot headView = lake.catalog.snapshot();
      List<String> before = new ArrayList<>();
      List<String> dumpsBefore = new ArrayList<>();
      List<CatalogSnapshot> writerViews = new ArrayList<>();
      List<CatalogSnapshot> readerViews = new ArrayList<>();
      List<CatalogSnapshot> filesOnly = new ArrayList<>();
      for (long s = 0; s <= head; s++) {
        CatalogSnapshot w = lake.catalog.snapshotAt(s);
        before.add(s == 0 ? "" : rowsOf(w));
        dumpsBefore.add(dump(lake.catalog, s));
        writerViews.add(w);
        CatalogSnapshot r = reader.snapshotAt(s);
        if (s > 0) {
          assertEquals(before.get((int) s), rowsOf(r), "the reader at " + s);
        }
        readerViews.add(r);
      }
      // Views of the same snapshots through a second reader, of which only the file list is read
      // before the flush (the inlined rows are asked for after it).
      try (ReadOnlyCatalog partial = Catalog.openReadOnly(lake.store, CatalogOptions.defaults())) {
        for (long s = 1; s <= head; s++) {
          CatalogSnapshot p = partial.snapshotAt(s);
          p.dataFiles(1);
          filesOnly.add(p);
        }
        assertEquals("file f @0+20; inlined 20 [100]; inlined 22 [102]", before.get((int) head));

        long flushed =
            lake.catalog.commit(
                tx ->
                    tx.flushInlined(
                        1,
                        InlineFlush.of(NewDataFile.parquet("flushed.parquet", 3, 600, 400))
                            .withRowDeletes(FlushDeleteFile.parquet("rows.parquet", 50, 10))));
        assertEquals(head + 1, flushed);

        for (long s = 1; s <= head; s++) {
          int i = (int) s;
          String where = " at snapshot " + s;
          assertEquals(before.get(i), rowsOf(writerViews.get(i)), "a writer's view" + where);
          assertEquals(
              before.get(i), rowsOf(lake.catalog.snapshotAt(s)), "the writer by id" + where);
          assertEquals(before.get(i), rowsOf(readerViews.get(i)), "a reader's view" + where);
          assertEquals(before.get(i), rowsOf(reader.snapshotAt(s)), "the reader by id" + where);
          assertEquals(dumpsBefore.get(i), dump(lake.catalog, s), "the writer's dump" + where);
          // Read in part before the flush: the file list of then, and the inlined rows of then.
          assertEquals(before.get(i), rowsOf(filesOnly.get(i - 1)), "a view read in part" + where);
        }
        assertEquals(before.get((int) head), rowsOf(headView), "the head view held");
        // The writer's next head view is carried from the one it held, which had read table 1:
        // the flush's changes make it read the table afresh, and so does a later insert.
        String flushedRows =
            "file f @0+20; file flushed.parquet @20+3; deletes 1 of file "
                + flushedFileId(reader, head + 1);
        assertEquals(flushedRows, rowsOf(lake.catalog.snapshot()), "the head after the flush");
        lake.catalog.commit(tx -> tx.insertInlined(1, List.of(row(103))));
        assertEquals(
            flushedRows + "; inlined 23 [103]",
            rowsOf(lake.catalog.snapshot()),
            "the head after an insert");

        // A reader opened after the flush finds every row the held views show inlined in the
        // backdated file (which rows of a file a snapshot sees is recorded in the file, by the
        // snapshot that inlined each: partial_max marks such a file).
        try (ReadOnlyCatalog after = Catalog.openReadOnly(lake.store, CatalogOptions.defaults())) {
          for (long s = 1; s <= head; s++) {
            CatalogSnapshot fresh = after.snapshotAt(s);
            CatalogSnapshot held = writerViews.get((int) s);
            assertEquals(List.of(), fresh.inlinedRows(1).rows(), "inlined rows at " + s);
            TreeSet<Long> inlinedHeld = new TreeSet<>();
            held.inlinedRows(1).rows().forEach(r -> inlinedHeld.add(r.rowId()));
            assertTrue(
                coveredRowIds(fresh).containsAll(inlinedHeld),
                "the rows inlined at " + s + " are in a file: " + rowsOf(fresh));
          }
          assertEquals(
              "file f @0+20; file flushed.parquet @20+3; deletes 1 of file "
                  + flushedFileId(after, head),
              rowsOf(after.snapshotAt(head)));
          assertNotEquals(before.get((int) head), rowsOf(after.snapshotAt(head)));
        }
      }
    }
  }

  private static long flushedFileId(ReadOnlyCatalog catalog, long at) {
    return catalog.snapshotAt(at).dataFiles(1).stream()
        .filter(f -> f.path().equals("flushed.parquet"))
        .findFirst()
        .orElseThrow()
        .dataFileId();
  }
}
