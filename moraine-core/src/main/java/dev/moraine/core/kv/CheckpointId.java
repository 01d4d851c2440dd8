package dev.moraine.core.kv;

import java.util.UUID;

/**
 * A durable checkpoint: a named, immutable state of the store that a reader can be opened at.
 *
 * @param id the checkpoint's identifier
 * @param manifestId the manifest version the checkpoint refers to
 */
public record CheckpointId(UUID id, long manifestId) {}
