package dev.moraine.core.catalog;

/**
 * What a writer catalog's commit path has done since it opened.
 *
 * @param commitsLanded commits acknowledged as landed (a group counts each member)
 * @param walFlushes write-ahead-log flushes the catalog asked the store for: at most one
 *     object-store PUT each (none when a flush found nothing new)
 * @param checkpointsPublished durable checkpoints published before acknowledgements
 */
public record CommitStatistics(long commitsLanded, long walFlushes, long checkpointsPublished) {
  /** Commits per flush so far (0 before the first flush). */
  public double commitsPerFlush() {
    return walFlushes == 0 ? 0 : (double) commitsLanded / walFlushes;
  }
}
