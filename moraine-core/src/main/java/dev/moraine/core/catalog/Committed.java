package dev.moraine.core.catalog;

/**
 * What {@link Catalog#commitReturning} returns: the snapshot the commit minted (or the head it left
 * standing, as {@link Catalog#commit} returns) and the value its body computed in the run that
 * landed.
 *
 * @param snapshotId the id {@link Catalog#commit} would have returned
 * @param value the body's value from its last run, the one whose changes were committed
 * @param <T> the value's type
 */
public record Committed<T>(long snapshotId, T value) {}
