package dev.moraine.core.catalog;

import dev.moraine.core.catalog.model.InlineFlush;
import java.util.Optional;

/**
 * Writes the files of a maintenance pass's flush step: for one table, the Parquet data file of its
 * inlined rows and the delete files of its inline deletions, as stock DuckLake's {@code
 * ducklake_flush_inlined_data} writes them ({@link InlineFlush} says what each file holds; RFC 0005
 * §7). The pass then registers them with {@code flushInlined}. Called on the maintenance thread.
 */
@FunctionalInterface
public interface InlineFlusher {
  /**
   * Writes the flush of table {@code tableId}'s inlined data as {@code snapshot} holds it.
   *
   * @return the files written, read through {@code snapshot}, or empty to leave the table's data
   *     inlined
   */
  Optional<InlineFlush> flush(CatalogSnapshot snapshot, long tableId);
}
