package dev.moraine.core.commit;

import java.time.Duration;

/**
 * How a writer's commit path runs (from the catalog's options).
 *
 * @param flushSpacing the least time between the starts of two write-ahead-log flushes; zero
 *     flushes every batch at once
 * @param publishCheckpoints whether a commit waits for a published checkpoint that covers it
 * @param checkpointLifetime how long each published checkpoint lives if nothing deletes it
 * @param maxMembers the most commits one batch takes from different callers
 * @param stallReport how long a commit waits in one go before its phase is logged
 */
public record CommitSettings(
    Duration flushSpacing,
    boolean publishCheckpoints,
    Duration checkpointLifetime,
    int maxMembers,
    Duration stallReport) {}
