package dev.moraine.store.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.moraine.core.catalog.AlreadyExistsException;
import dev.moraine.core.catalog.CommitBody;
import dev.moraine.core.catalog.ErrorCode;
import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.NewDataFile;
import dev.moraine.core.catalog.model.NewFileColumnStats;
import dev.moraine.core.catalog.model.OptionScope;
import java.util.List;
import java.util.SortedMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad input gets a typed error and the store is unchanged, key for key; a closure that throws
 * writes nothing and its exception reaches the caller as it was thrown.
 */
class VerbErrorsTest {
  private CommitLake lake;
  private long schema;
  private long table;

  @BeforeEach
  void lakeWithATable() {
    lake = new CommitLake();
    lake.catalog.commit(
        tx -> {
          schema = tx.createSchema("s");
          table =
              tx.createTable(
                  schema,
                  "t",
                  List.of(
                      ColumnDef.of("a", "int64"),
                      ColumnDef.nested("st", "struct", ColumnDef.of("x", "int32"))));
        });
  }

  @AfterEach
  void close() {
    lake.close();
  }

  private <T extends MoraineException> T refused(Class<T> type, ErrorCode code, CommitBody body) {
    return lake.refused(type, code, body);
  }

  @Test
  void unknownSchemaOrTable_isNotFound() {
    refused(
        NotFoundException.class,
        ErrorCode.NOT_FOUND,
        tx -> tx.createTable(99, "x", List.of(ColumnDef.of("a", "int64"))));
    refused(NotFoundException.class, ErrorCode.NOT_FOUND, tx -> tx.renameTable(99, "y"));
    refused(
        NotFoundException.class,
        ErrorCode.NOT_FOUND,
        tx -> tx.addColumn(99, ColumnDef.of("b", "int64")));
    refused(NotFoundException.class, ErrorCode.NOT_FOUND, tx -> tx.dropColumn(table, 99));
    refused(
        NotFoundException.class,
        ErrorCode.NOT_FOUND,
        tx -> tx.registerDataFile(99, NewDataFile.parquet("f", 1, 1, 1)));
    refused(
        NotFoundException.class,
        ErrorCode.NOT_FOUND,
        tx ->
            tx.registerDataFile(
                table,
                NewDataFile.parquet("f", 1, 1, 1)
                    .withColumnStats(List.of(NewFileColumnStats.of(42, 1, 1, 0, null, null)))));
    refused(
        NotFoundException.class,
        ErrorCode.NOT_FOUND,
        tx -> tx.setOption(new OptionScope.Table(99), "k", "v"));
  }

  @Test
  void droppingWhatIsGone_isNotFound() {
    lake.catalog.commit(tx -> tx.dropTable(table));
    refused(NotFoundException.class, ErrorCode.NOT_FOUND, tx -> tx.dropTable(table));
    refused(NotFoundException.class, ErrorCode.NOT_FOUND, tx -> tx.dropSchema(77));
    // Dropped twice in one closure: the second sees the first.
    lake.catalog.commit(tx -> tx.createTable(schema, "u", List.of(ColumnDef.of("a", "int64"))));
    long u = lake.catalog.snapshot().tableByName(schema, "u").orElseThrow().tableId();
    refused(
        NotFoundException.class,
        ErrorCode.NOT_FOUND,
        tx -> {
          tx.dropTable(u);
          tx.dropTable(u);
        });
  }

  @Test
  void duplicateNames_areAlreadyExists_caseInsensitively() {
    refused(AlreadyExistsException.class, ErrorCode.ALREADY_EXISTS, tx -> tx.createSchema("S"));
    refused(
        AlreadyExistsException.class,
        ErrorCode.ALREADY_EXISTS,
        tx -> tx.createTable(schema, "T", List.of(ColumnDef.of("a", "int64"))));
    refused(
        AlreadyExistsException.class,
        ErrorCode.ALREADY_EXISTS,
        tx -> tx.addColumn(table, ColumnDef.of("A", "int64")));
    refused(
        AlreadyExistsException.class,
        ErrorCode.ALREADY_EXISTS,
        tx ->
            tx.createTable(
                schema, "v", List.of(ColumnDef.of("a", "int64"), ColumnDef.of("A", "int32"))));
    refused(
        AlreadyExistsException.class,
        ErrorCode.ALREADY_EXISTS,
        tx -> {
          tx.createTable(schema, "w", List.of(ColumnDef.of("a", "int64")));
          tx.renameTable(table, "W");
        });
  }

  @Test
  void typesDuckLakeCannotName_andMisshapenNestedTypes_areInvalid() {
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx -> tx.createTable(schema, "x", List.of(ColumnDef.of("a", "int65"))));
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx -> tx.addColumn(table, ColumnDef.of("b", "decimal(50,2)")));
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx ->
            tx.addColumn(
                table,
                ColumnDef.nested(
                    "l", "list", ColumnDef.of("a", "int32"), ColumnDef.of("b", "int32"))));
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx -> tx.addColumn(table, ColumnDef.nested("m", "map", ColumnDef.of("k", "int32"))));
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx -> tx.addColumn(table, ColumnDef.nested("i", "int32", ColumnDef.of("k", "int32"))));
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx -> tx.createTable(schema, "x", List.of()));
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx -> tx.createTable(schema, "a/b", List.of(ColumnDef.of("a", "int64"))));
  }

  @Test
  void negativeCountsAndSizes_areInvalid() {
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx -> tx.registerDataFile(table, NewDataFile.parquet("f", -1, 10, 1)));
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx -> tx.registerDataFile(table, NewDataFile.parquet("f", 1, -10, 1)));
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx -> tx.registerDataFile(table, NewDataFile.parquet("f", 1, 10, -1)));
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx ->
            tx.registerDataFile(
                table,
                NewDataFile.parquet("f", 1, 1, 1)
                    .withColumnStats(List.of(NewFileColumnStats.of(1, 1, -1, 0, null, null)))));
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx ->
            tx.registerDataFile(
                table, NewDataFile.parquet("f", 1, 1, 1).withPartitionValues(List.of("x"))));
  }

  @Test
  void aViewCreatedInTheClosure_takesItsName_andHoldsItsSchema() {
    refused(
        AlreadyExistsException.class,
        ErrorCode.ALREADY_EXISTS,
        tx -> {
          tx.createView(schema, "v", "duckdb", "SELECT 1");
          tx.createTable(schema, "V", List.of(ColumnDef.of("a", "int64")));
        });
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx -> {
          long s2 = tx.createSchema("s2");
          tx.createView(s2, "v", "duckdb", "SELECT 1");
          tx.dropSchema(s2);
        });
  }

  @Test
  void otherRefusals_areInvalid() {
    refused(InvalidArgumentException.class, ErrorCode.INVALID_ARGUMENT, tx -> tx.dropSchema(0));
    refused(
        InvalidArgumentException.class, ErrorCode.INVALID_ARGUMENT, tx -> tx.dropSchema(schema));
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx -> {
          tx.dropColumn(table, 2);
          tx.dropColumn(table, 1);
        });
    refused(
        InvalidArgumentException.class,
        ErrorCode.INVALID_ARGUMENT,
        tx -> tx.setOption(OptionScope.global(), "encrypted", "true"));
  }

  @Test
  void aThrowingClosure_writesNothing_andItsExceptionReachesTheCaller() {
    IllegalStateException thrown = new IllegalStateException("mine");
    SortedMap<String, String> before = lake.contents();
    IllegalStateException caught =
        assertThrows(
            IllegalStateException.class,
            () ->
                lake.catalog.commit(
                    tx -> {
                      tx.createSchema("other");
                      tx.registerDataFile(table, NewDataFile.parquet("f", 1, 1, 1));
                      tx.setOption(OptionScope.global(), "k", "v");
                      throw thrown;
                    }));
    assertSame(thrown, caught);
    assertEquals(before, lake.contents());
  }

  @Test
  void aHandleKeptPastItsCommit_refusesVerbs() {
    Transaction[] kept = new Transaction[1];
    lake.catalog.commit(tx -> kept[0] = tx);
    SortedMap<String, String> before = lake.contents();
    assertThrows(InvalidArgumentException.class, () -> kept[0].createSchema("late"));
    assertEquals(before, lake.contents());
  }
}
