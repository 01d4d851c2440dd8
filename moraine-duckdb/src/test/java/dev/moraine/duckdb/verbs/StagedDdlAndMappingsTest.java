package dev.moraine.duckdb.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.MoraineException;
import dev.moraine.core.catalog.NotFoundException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.core.catalog.model.ColumnDef;
import dev.moraine.core.catalog.model.Head;
import dev.moraine.duckdb.reference.ReferenceDuckLake;
import dev.moraine.duckdb.session.CommitCapture;
import dev.moraine.ducklake.rows.ColumnMappingRow;
import dev.moraine.ducklake.rows.ColumnTagRow;
import dev.moraine.ducklake.rows.NameMappingRow;
import dev.moraine.ducklake.rows.SortExpressionRow;
import dev.moraine.ducklake.rows.SortInfoRow;
import dev.moraine.ducklake.rows.TableRow;
import dev.moraine.ducklake.rows.TagRow;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Comments, sort keys, RESET PARTITIONED BY and files registered with a column mapping through the
 * staged-row door, against stock DuckLake 1.5.5: each statement's row operations are read off
 * stock's catalog and handed to {@code commitStaged}, first altered in ways the door must refuse
 * (each refusal a typed error that writes nothing), then as stock wrote them, after which every
 * ducklake_* row equals stock's.
 */
class StagedDdlAndMappingsTest {
  @TempDir Path dir;
  private PairedLakes lakes;
  private ReferenceDuckLake stock;

  @BeforeEach
  void open() throws Exception {
    lakes =
        PairedLakes.open(
            ReferenceDuckLake.builder(dir.resolve("stock")).dataInliningRowLimit(0), "staged");
    stock = lakes.stock;
    stock.execute("CREATE TABLE t (a INTEGER, b VARCHAR)");
    lakes.catalog.commit(
        tx ->
            tx.createTable(
                0, "t", List.of(ColumnDef.of("a", "int32"), ColumnDef.of("b", "varchar"))));
    assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()), "the setup");
  }

  @AfterEach
  void close() throws Exception {
    if (lakes != null) {
      lakes.close();
    }
  }

  @Test
  void commentsAndSortKeys_refuseWhatStockWouldNotWrite_andLandWhatItWrote() throws Exception {
    land(captured("COMMENT ON TABLE t IS 'one'"));

    StagedRows second = captured("COMMENT ON TABLE t IS 'two'");
    refused(
        without(second, op -> op instanceof StagedRows.End && op.row() instanceof TagRow),
        InvalidArgumentException.class,
        "does not end");
    refused(
        mapped(
            second,
            op ->
                op instanceof StagedRows.End e && e.row() instanceof TagRow r
                    ? new StagedRows.End(
                        new TagRow(r.objectId(), r.beginSnapshot(), null, r.key(), "other"),
                        e.endSnapshot())
                    : op),
        InvalidArgumentException.class,
        "not of a live entry");
    refused(
        mapped(
            second,
            op ->
                op instanceof StagedRows.Insert i && i.row() instanceof TagRow r
                    ? new StagedRows.Insert(
                        new TagRow(r.objectId(), r.beginSnapshot(), null, r.key(), null))
                    : op),
        InvalidArgumentException.class,
        "NULL");
    land(second);

    StagedRows column = captured("COMMENT ON COLUMN t.b IS 'bee'");
    refused(
        mapped(
            column,
            op ->
                op instanceof StagedRows.Insert i && i.row() instanceof ColumnTagRow r
                    ? new StagedRows.Insert(
                        new ColumnTagRow(
                            r.tableId(), 99L, r.beginSnapshot(), null, r.key(), r.value()))
                    : op),
        NotFoundException.class,
        "column 99");
    land(column);

    StagedRows sorted = captured("ALTER TABLE t SET SORTED BY (a DESC)");
    refused(
        without(sorted, op -> op.row() instanceof SortExpressionRow),
        InvalidArgumentException.class,
        "no ducklake_sort_expression");
    refused(
        mapped(
            sorted,
            op ->
                op.row() instanceof SortExpressionRow x
                    ? new StagedRows.Insert(expression(x, x.sortId(), 1L))
                    : op),
        InvalidArgumentException.class,
        "missing");
    land(sorted);

    // A table and its sort key created in one transaction draw two catalog ids: one id may not
    // serve both.
    stock.execute("BEGIN");
    stock.execute("CREATE TABLE c (x INTEGER)");
    stock.execute("ALTER TABLE c SET SORTED BY (x)");
    StagedRows created = captured("COMMIT");
    long tableId =
        created.ops().stream()
            .filter(op -> op.row() instanceof TableRow)
            .map(op -> ((TableRow) op.row()).tableId())
            .findFirst()
            .orElseThrow();
    refused(
        mapped(
            created,
            op ->
                op.row() instanceof SortInfoRow s
                    ? new StagedRows.Insert(
                        new SortInfoRow(tableId, s.tableId(), s.beginSnapshot(), null))
                    : op.row() instanceof SortExpressionRow x
                        ? new StagedRows.Insert(expression(x, tableId, x.sortKeyIndex()))
                        : op),
        InvalidArgumentException.class,
        "drawn twice");
    land(created);

    StagedRows reset = captured("ALTER TABLE t RESET SORTED BY");
    refused(
        mapped(
            reset,
            op ->
                op instanceof StagedRows.End e && e.row() instanceof SortInfoRow s
                    ? new StagedRows.End(
                        new SortInfoRow(s.sortId(), s.tableId(), s.beginSnapshot(), 5L),
                        e.endSnapshot())
                    : op),
        InvalidArgumentException.class,
        "end_snapshot is set");
    land(reset);

    // A drop ends the table's tags, its columns' tags and its sort key with it.
    land(captured("DROP TABLE c"));
    land(captured("DROP TABLE t"));
  }

  /**
   * RESET PARTITIONED BY: stock ends the live partitioning and opens one without columns; the door
   * keeps no record for that one, and refuses such a row that ends no partitioning.
   */
  @Test
  void resetPartitionedBy_needsTheEndOfTheLivePartitioning() throws Exception {
    land(captured("ALTER TABLE t SET PARTITIONED BY (a)"));
    StagedRows reset = captured("ALTER TABLE t RESET PARTITIONED BY");
    refused(
        without(
            reset,
            op ->
                op instanceof StagedRows.End
                    && op.row() instanceof dev.moraine.ducklake.rows.PartitionInfoRow),
        InvalidArgumentException.class,
        "while its live one is not ended");
    assertEquals(reset.baseSnapshotId() + 1, lakes.catalog.commitStaged(reset));
    List<String> differing = RowComparison.differences(stock, lakes.ours());
    assertEquals(1, differing.size(), differing.toString());
    assertTrue(differing.get(0).startsWith("ducklake_partition_info"), differing.get(0));
    assertTrue(lakes.catalog.snapshot().partitioning(1).isEmpty(), "t is not partitioned");
  }

  /**
   * {@code ducklake_add_data_files}: a column mapping with its name rows, under an id drawn from
   * {@code next_file_id}, and the file naming it.
   */
  @Test
  void addedDataFiles_takeTheirMapping_andRefuseAMalformedOne() throws Exception {
    Path file = dir.resolve("ext.parquet");
    stock.execute(
        "COPY (SELECT 'v' || i AS B, i::INTEGER AS A FROM range(3) r(i)) TO '" + file + "'");
    StagedRows added =
        captured("CALL ducklake_add_data_files('" + stock.alias() + "', 't', '" + file + "')");
    refused(
        without(added, op -> op.row() instanceof NameMappingRow),
        InvalidArgumentException.class,
        "no ducklake_name_mapping rows");
    refused(
        without(added, op -> op.row() instanceof ColumnMappingRow),
        InvalidArgumentException.class,
        "this commit does not create");
    refused(
        without(
            added,
            op -> op.row() instanceof ColumnMappingRow || op.row() instanceof NameMappingRow),
        NotFoundException.class,
        "names column mapping");
    refused(
        mapped(
            added,
            op ->
                op.row() instanceof NameMappingRow m && m.columnId() == 1L
                    ? new StagedRows.Insert(
                        new NameMappingRow(
                            m.mappingId(),
                            m.columnId(),
                            m.sourceName(),
                            99L,
                            m.parentColumn(),
                            m.isPartition()))
                    : op),
        NotFoundException.class,
        "column 99");
    land(added);
  }

  /** Runs {@code sql} on stock and returns the row operations of the commit it made. */
  private StagedRows captured(String sql) throws Exception {
    long base = lakes.catalog.head().snapshotId();
    CommitCapture.Rows before = StagedCapture.read(stock);
    stock.execute(sql);
    return StagedCapture.between(base, before, StagedCapture.read(stock));
  }

  private void land(StagedRows rows) throws Exception {
    long landed = lakes.catalog.commitStaged(rows);
    assertEquals(rows.baseSnapshotId() + 1, landed);
    assertEquals(List.of(), RowComparison.differences(stock, lakes.ours()), rows.toString());
  }

  private void refused(StagedRows rows, Class<? extends MoraineException> type, String fragment) {
    Head head = lakes.catalog.head();
    MoraineException e = assertThrows(type, () -> lakes.catalog.commitStaged(rows));
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
    assertEquals(head, lakes.catalog.head(), "a refusal writes nothing");
  }

  /** {@code x} under sort id {@code sortId} at key index {@code index}. */
  private static SortExpressionRow expression(SortExpressionRow x, long sortId, Long index) {
    return new SortExpressionRow(
        sortId, x.tableId(), index, x.expression(), x.dialect(), x.sortDirection(), x.nullOrder());
  }

  private static StagedRows without(
      StagedRows rows, java.util.function.Predicate<StagedRows.Op> dropped) {
    return new StagedRows(
        rows.baseSnapshotId(), rows.ops().stream().filter(dropped.negate()).toList());
  }

  private static StagedRows mapped(StagedRows rows, UnaryOperator<StagedRows.Op> change) {
    return new StagedRows(rows.baseSnapshotId(), rows.ops().stream().map(change).toList());
  }
}
