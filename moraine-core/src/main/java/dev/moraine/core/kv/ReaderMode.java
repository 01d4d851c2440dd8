package dev.moraine.core.kv;

import java.util.Objects;

/** How a {@link KvReader} chooses what it sees. */
public sealed interface ReaderMode {

  /** Follow the latest durable state, polling the store for new writes. Writes nothing. */
  record FollowLatest() implements ReaderMode {}

  /** Stay at one checkpoint: never poll, never see a later write. Writes nothing. */
  record Pinned(CheckpointId checkpoint) implements ReaderMode {
    public Pinned {
      Objects.requireNonNull(checkpoint, "checkpoint");
    }
  }

  /** Follow the latest durable state. */
  static ReaderMode followLatest() {
    return new FollowLatest();
  }

  /** Stay at {@code checkpoint}. */
  static ReaderMode pinned(CheckpointId checkpoint) {
    return new Pinned(checkpoint);
  }
}
