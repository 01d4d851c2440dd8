package dev.moraine.core.verb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.ducklake.changes.ChangesMade;
import org.junit.jupiter.api.Test;

/**
 * The staged-row door's check of DuckLake's {@code changes_made} text, which the lake stores as
 * given: the writer's own entries, reordered only within one group.
 */
class StagedChangesTextTest {
  @Test
  void theWritersTextAndItsNameGroupInAnotherOrder_areTaken() {
    String canonical = "created_schema:\"s3\",created_view:\"s3\".\"w\",created_table:\"s3\".\"y\"";
    assertEquals(ChangesMade.parse(canonical), StagedTranslation.changeSet(canonical));
    String hashOrder = "created_schema:\"s3\",created_table:\"s3\".\"y\",created_view:\"s3\".\"w\"";
    assertEquals(ChangesMade.parse(canonical), StagedTranslation.changeSet(hashOrder));
    String commaInName = "created_table:\"s\".\"a,b\",created_table:\"s\".\"c\"";
    assertEquals(ChangesMade.parse(commaInName), StagedTranslation.changeSet(commaInName));
  }

  @Test
  void textTheWriterWouldNotWrite_isRefused() {
    for (String text :
        new String[] {
          "INSERTED_INTO_TABLE:7",
          "inserted_into_table:-1",
          "inserted_into_table:07",
          "deleted_from_table:7,inserted_into_table:7",
          "inserted_into_table:7,inserted_into_table:7",
          ""
        }) {
      assertThrows(InvalidArgumentException.class, () -> StagedTranslation.changeSet(text), text);
    }
  }
}
