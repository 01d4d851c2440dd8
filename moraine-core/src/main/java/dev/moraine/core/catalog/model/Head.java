package dev.moraine.core.catalog.model;

/**
 * The store's head: the latest committed snapshot and the count of head-stamping batches. Two heads
 * are the same store state exactly when both numbers are equal.
 */
public record Head(long snapshotId, long batchSeq) {}
