package dev.moraine.core.catalog.model;

/** A file scheduled for deletion ({@code ducklake_files_scheduled_for_deletion}). */
public record ScheduledDeletion(
    long dataFileId, String path, boolean pathIsRelative, long scheduleStartMicros) {}
