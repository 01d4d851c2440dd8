package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moraine.core.catalog.CommitFunction;
import dev.moraine.core.catalog.Committed;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.model.ColumnDef;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@code Catalog.commitReturning}: the value of the run that landed, beside its snapshot id. */
class CommitReturningTest {
  private static final List<ColumnDef> COLUMNS = List.of(ColumnDef.of("id", "int64"));

  @Test
  void returnsTheCreatedIdsAndTheSnapshot() {
    try (CommitLake lake = new CommitLake()) {
      Committed<Long> schema = lake.catalog.commitReturning(tx -> tx.createSchema("s"));
      Committed<Long> table =
          lake.catalog.commitReturning(tx -> tx.createTable(schema.value(), "t", COLUMNS));
      assertEquals(lake.catalog.snapshot().snapshotId(), table.snapshotId());
      assertEquals(
          table.value(),
          lake.catalog.snapshot().tableByName(schema.value(), "t").orElseThrow().tableId());
    }
  }

  @Test
  void aReRunHandsBackTheValueOfTheRunThatLanded() {
    try (CommitLake lake = new CommitLake()) {
      long schema = lake.catalog.commitReturning(tx -> tx.createSchema("s")).value();
      AtomicInteger runs = new AtomicInteger();
      long[] firstRunId = new long[1];
      // The first run creates "mine", then a rival creates "rival" (taking the next catalog id);
      // the re-run creates "mine" again, under a later id.
      CommitFunction<Long> body =
          tx -> {
            long id = tx.createTable(schema, "mine", COLUMNS);
            if (runs.get() == 1) { // racing counts a run before running it
              firstRunId[0] = id;
            }
            return id;
          };
      Committed<Long> mine =
          lake.catalog.commitReturning(
              tx -> {
                Long[] out = new Long[1];
                lake.racing(
                        1,
                        rival -> rival.createTable(schema, "rival", COLUMNS),
                        runs,
                        t -> out[0] = body.apply(t))
                    .run(tx);
                return out[0];
              });
      assertEquals(2, runs.get(), "the body ran twice");
      long landed = lake.catalog.snapshot().tableByName(schema, "mine").orElseThrow().tableId();
      assertEquals(landed, mine.value());
      assertNotEquals(firstRunId[0], landed, "the re-run's id differs from the first run's");
    }
  }

  @Test
  void aNullBodyIsRefused() {
    try (CommitLake lake = new CommitLake()) {
      InvalidArgumentException e =
          assertThrows(InvalidArgumentException.class, () -> lake.catalog.commitReturning(null));
      assertEquals(ErrorCode.INVALID_ARGUMENT, e.code());
    }
  }
}
