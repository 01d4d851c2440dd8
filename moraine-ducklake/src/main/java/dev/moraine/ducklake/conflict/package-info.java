/**
 * DuckLake 1.0's commit-time conflict check as a pure function ({@link
 * dev.moraine.ducklake.conflict.ConflictMatrix}) of this commit's change set, the union of the
 * change sets committed since its premise, and caller-supplied facts about data files ({@link
 * dev.moraine.ducklake.conflict.DeleteTargets}) and schemas ({@link
 * dev.moraine.ducklake.conflict.SchemaIdentities}).
 */
package dev.moraine.ducklake.conflict;
