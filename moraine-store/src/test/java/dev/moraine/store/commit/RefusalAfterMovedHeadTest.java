package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.InlineFlush;
import dev.moraine.core.catalog.model.NewDataFile;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A verb's typed refusal while another commit moved the head is a lost race, re-run on the new
 * head; with the head unmoved it reaches the caller after one run (RFC 0004 §4.1, step 4).
 *
 * <p>The race is forced, not waited for: the closure's first run lands a flush of the same inlined
 * rows from another thread, so its own flush then finds the chunks gone, although its premise still
 * holds them.
 */
class RefusalAfterMovedHeadTest {

  private static final InlineFlush TWO_ROWS =
      InlineFlush.of(NewDataFile.parquet("two.parquet", 2, 600, 400));

  /** CREATE TABLE t(a INTEGER, b VARCHAR) and two inlined rows: snapshots 1 and 2, table 1. */
  private static void tableWithTwoInlinedRows(CommitLake lake) {
    lake.catalog.commit(
        tx ->
            tx.createTable(
                0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar"))));
    lake.catalog.commit(
        tx ->
            tx.insertInlined(
                1, List.of(new ArrayList<>(List.of(1, "x")), new ArrayList<>(List.of(2, "y")))));
  }

  @Test
  void aRefusalOnRowsAFlushDrainedMeanwhileIsReRunOnTheNewHead() {
    try (CommitLake lake = new CommitLake()) {
      tableWithTwoInlinedRows(lake);
      List<Long> premises = new ArrayList<>();
      InvalidArgumentException refused =
          assertThrows(
              InvalidArgumentException.class,
              () ->
                  lake.catalog.commit(
                      tx -> {
                        premises.add(tx.premise().snapshotId());
                        if (premises.size() == 1) {
                          // Land the competing flush now, from another thread, and wait for it.
                          CompletableFuture.runAsync(
                                  () -> lake.catalog.commit(o -> o.flushInlined(1, TWO_ROWS)))
                              .join();
                        }
                        tx.flushInlined(1, TWO_ROWS);
                      }));
      // First run: premise 2 (the rows inlined), refused because the flush at 3 drained them; the
      // head had moved, so the closure ran again on snapshot 3, where there is nothing to flush and
      // the refusal stands.
      assertEquals(List.of(2L, 3L), premises);
      assertTrue(refused.getMessage().contains("no inlined rows"), refused.getMessage());
      assertEquals(3, lake.catalog.snapshot().snapshotId(), "only the competing flush landed");
    }
  }

  @Test
  void aRefusalWithTheHeadUnmovedReachesTheCallerAfterOneRun() {
    try (CommitLake lake = new CommitLake()) {
      tableWithTwoInlinedRows(lake);
      lake.catalog.commit(tx -> tx.flushInlined(1, TWO_ROWS));
      List<Long> premises = new ArrayList<>();
      InvalidArgumentException refused =
          assertThrows(
              InvalidArgumentException.class,
              () ->
                  lake.catalog.commit(
                      tx -> {
                        premises.add(tx.premise().snapshotId());
                        tx.flushInlined(1, TWO_ROWS);
                      }));
      assertEquals(List.of(3L), premises);
      assertTrue(refused.getMessage().contains("no inlined rows"), refused.getMessage());
      assertEquals(3, lake.catalog.snapshot().snapshotId());
    }
  }
}
