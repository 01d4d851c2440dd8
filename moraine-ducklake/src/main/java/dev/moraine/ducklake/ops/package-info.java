/**
 * Classification of DuckLake's user-level operations by their effect on the catalog counters and on
 * {@code changes_made}: {@link dev.moraine.ducklake.ops.DuckLakeOperation} holds the predictions
 * (one line each) and {@link dev.moraine.ducklake.ops.CommitShape} combines the operations of one
 * commit.
 */
package dev.moraine.ducklake.ops;
