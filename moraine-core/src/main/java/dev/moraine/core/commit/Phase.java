package dev.moraine.core.commit;

/** Where a commit is on its way through the path, as a stall report names it. */
enum Phase {
  /** Queued: waiting for the commit thread to take it into a batch. */
  ADMITTING("admitting"),
  /** In a forming batch: its closure runs, or runs again, on the commit thread. */
  STAGING("staging"),
  /** Its batch is being written to the store as one atomic write. */
  SUBMITTING("submitting"),
  /** Its batch is in the store; the write-ahead-log flush that makes it durable is pending. */
  AWAITING_DURABILITY("awaiting durability"),
  /** Durable; the checkpoint that covers it is being published. */
  AWAITING_PUBLICATION("awaiting publication");

  private final String text;

  Phase(String text) {
    this.text = text;
  }

  @Override
  public String toString() {
    return text;
  }
}
