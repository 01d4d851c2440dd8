package dev.moraine.core.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.catalog.model.TagEntry;
import dev.moraine.core.keyspace.proto.ColumnTag;
import dev.moraine.core.keyspace.proto.ColumnValue;
import dev.moraine.core.keyspace.proto.TagValue;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Tags as the catalog held them right after a snapshot S ({@link CatalogHistory}): entries begun
 * after S are left out, and an end after S is not shown (it did not exist yet).
 */
class RecordsThroughTest {
  private static final TagValue TAGS =
      TagValue.newBuilder()
          .setObjectId(3)
          .addEntries(
              dev.moraine.core.keyspace.proto.TagEntry.newBuilder()
                  .setBeginSnapshot(2)
                  .setEndSnapshot(5)
                  .setKey("comment")
                  .setValue("first"))
          .addEntries(
              dev.moraine.core.keyspace.proto.TagEntry.newBuilder()
                  .setBeginSnapshot(5)
                  .setKey("comment")
                  .setValue("second"))
          .build();

  @Test
  void tagsThrough_keepEndsAtOrBeforeS_only() {
    assertEquals(
        List.of(new TagEntry(2, OptionalLong.empty(), "comment", "first")),
        Records.tagsThrough(TAGS, 4));
    assertEquals(
        List.of(
            new TagEntry(2, OptionalLong.of(5), "comment", "first"),
            new TagEntry(5, OptionalLong.empty(), "comment", "second")),
        Records.tagsThrough(TAGS, 5));
    assertEquals(List.of(), Records.tagsThrough(TAGS, 1));
  }

  @Test
  void columnThrough_appliesTheSameRuleToColumnTags() {
    ColumnValue c =
        ColumnValue.newBuilder()
            .setColumnId(1)
            .setTableId(3)
            .setBeginSnapshot(1)
            .setColumnName("a")
            .setColumnType("int32")
            .setNullsAllowed(true)
            .addTags(
                ColumnTag.newBuilder()
                    .setBeginSnapshot(2)
                    .setEndSnapshot(6)
                    .setKey("comment")
                    .setValue("x"))
            .addTags(ColumnTag.newBuilder().setBeginSnapshot(6).setKey("comment").setValue("y"))
            .build();
    assertEquals(
        List.of(new TagEntry(2, OptionalLong.empty(), "comment", "x")),
        Records.columnThrough(c, 3).tags());
    assertEquals(
        List.of(
            new TagEntry(2, OptionalLong.of(6), "comment", "x"),
            new TagEntry(6, OptionalLong.empty(), "comment", "y")),
        Records.columnThrough(c, 7).tags());
  }
}
