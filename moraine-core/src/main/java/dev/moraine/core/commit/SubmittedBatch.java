package dev.moraine.core.commit;

import java.util.List;

/**
 * A batch the commit thread is done with, handed to the flush thread: written to the store (with
 * the sequence number of its write), or with nothing to write ({@code seqnum} negative), whose
 * members still wait until everything their premise rests on is durable.
 *
 * @param requests the callers, in staging order
 * @param weight how many commits the batch carries (what a flush's population counts)
 * @param seqnum the store sequence number of the batch's write, or -1 for a batch that wrote
 *     nothing
 * @param submittedAt when it was handed over ({@link System#nanoTime()})
 */
record SubmittedBatch(List<CommitRequest> requests, int weight, long seqnum, long submittedAt) {
  boolean wrote() {
    return seqnum >= 0;
  }
}
