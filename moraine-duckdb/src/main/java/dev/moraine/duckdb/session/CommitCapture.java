package dev.moraine.duckdb.session;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.StagedRows;
import dev.moraine.ducklake.rows.DuckLakeRow;
import dev.moraine.ducklake.rows.DuckLakeTables;
import dev.moraine.ducklake.rows.TableDef;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * The row operations of one DuckLake commit, read off its metadata catalog before and after: what
 * {@code Catalog.commitStaged} takes. DuckLake appends most of its rows from a buffer, so they
 * never show in a statement log; the tables themselves are the record. Read off them:
 *
 * <ul>
 *   <li>a row new in a table is an insert ({@link StagedRows.Insert});
 *   <li>a row of a versioned table whose {@code end_snapshot} the commit set is an end ({@link
 *       StagedRows.End});
 *   <li>a row of {@code ducklake_table_stats} or {@code ducklake_table_column_stats} whose values
 *       changed is an insert of its new values, as the door takes DuckLake's {@code UPDATE} of it;
 *   <li>any other row that is gone is a delete ({@link StagedRows.Delete}).
 * </ul>
 *
 * The inlined-data tables ({@code ducklake_inlined_data_<t>_<v>}, {@code
 * ducklake_inlined_delete_<t>}) are compared too, by {@link InlinedCapture}: their new rows and
 * ends are the commit's inlined operations ({@link StagedRows#inlined}).
 */
public final class CommitCapture {
  /**
   * Every metadata table's rows at one moment ({@code byTable}, by table name), and the
   * inlined-data tables' ({@code inlined}, by table name; also in {@code byTable}).
   */
  public record Rows(
      Map<String, List<Map<String, Object>>> byTable, Map<String, InlinedCapture.Table> inlined) {
    public Rows {
      byTable = Collections.unmodifiableMap(new LinkedHashMap<>(byTable));
      inlined = Collections.unmodifiableMap(new LinkedHashMap<>(inlined));
    }

    /** The metadata tables' rows, without inlined-data tables. */
    public Rows(Map<String, List<Map<String, Object>>> byTable) {
      this(byTable, Map.of());
    }
  }

  private static final Map<String, Class<? extends DuckLakeRow>> TYPES = rowTypes();

  private static final Set<String> UPDATED_IN_PLACE =
      Set.of("ducklake_table_stats", "ducklake_table_column_stats");

  private CommitCapture() {}

  /**
   * Reads every {@code ducklake_*} table of the metadata catalog {@code metadataCatalog} (DuckLake
   * attaches it as {@code __ducklake_metadata_<alias>}) through {@code connection}.
   */
  public static Rows read(Connection connection, String metadataCatalog) throws SQLException {
    Map<String, List<Map<String, Object>>> out = new LinkedHashMap<>();
    Map<String, InlinedCapture.Table> inlined = new LinkedHashMap<>();
    for (TableDef def : DuckLakeTables.ALL) {
      out.put(def.name(), rows(connection, def.selectSql(quote(metadataCatalog))));
    }
    // The inlined tables are not listed in DuckDB's information schema: their names come from
    // ducklake_inlined_data_tables and the table ids, and each is read if it exists.
    Set<String> names = new java.util.TreeSet<>();
    for (Map<String, Object> r : out.get("ducklake_inlined_data_tables")) {
      names.add((String) r.get("table_name"));
    }
    for (Map<String, Object> r : out.get("ducklake_table")) {
      names.add(DuckLakeTables.inlinedDeleteTableName(((Number) r.get("table_id")).longValue()));
    }
    for (String name : names) {
      InlinedCapture.Table table = InlinedCapture.read(connection, quote(metadataCatalog), name);
      if (table != null) {
        inlined.put(name, table);
        out.put(name, table.rows());
      }
    }
    return new Rows(out, inlined);
  }

  /**
   * The operations of the commit that took the catalog from {@code before} to {@code after},
   * authored against snapshot {@code base}: its row operations on the metadata tables, and those on
   * the inlined-data tables ({@link InlinedCapture#between}).
   *
   * @throws InvalidArgumentException if a row holds a value of the wrong type for its column
   */
  public static StagedRows between(long base, Rows before, Rows after) {
    List<StagedRows.Op> ops = new ArrayList<>();
    for (TableDef def : DuckLakeTables.ALL) {
      diff(def, before.byTable().get(def.name()), after.byTable().get(def.name()), ops);
    }
    return new StagedRows(base, ops, InlinedCapture.between(before.inlined(), after.inlined()));
  }

  private static void diff(
      TableDef def,
      List<Map<String, Object>> was,
      List<Map<String, Object>> now,
      List<StagedRows.Op> ops) {
    Set<Map<String, Object>> old = new HashSet<>(was);
    Set<Map<String, Object>> fresh = new HashSet<>(now);
    List<Map<String, Object>> added = now.stream().filter(r -> !old.contains(r)).toList();
    List<Map<String, Object>> gone =
        new ArrayList<>(was.stream().filter(r -> !fresh.contains(r)).toList());
    boolean versioned = def.columnNames().contains("end_snapshot");
    for (Map<String, Object> row : added) {
      Map<String, Object> earlier = versioned ? endedFrom(row, gone) : null;
      if (earlier != null) {
        gone.remove(earlier);
        ops.add(
            new StagedRows.End(
                typed(def, earlier), ((Number) row.get("end_snapshot")).longValue()));
      } else {
        if (UPDATED_IN_PLACE.contains(def.name())) {
          gone.removeIf(g -> sameKey(def, g, row));
        }
        ops.add(new StagedRows.Insert(typed(def, row)));
      }
    }
    for (Map<String, Object> row : gone) {
      ops.add(new StagedRows.Delete(typed(def, row)));
    }
  }

  /** The live row {@code row} is the ended version of, among {@code gone}; null if none. */
  static Map<String, Object> endedFrom(Map<String, Object> row, List<Map<String, Object>> gone) {
    if (row.get("end_snapshot") == null) {
      return null;
    }
    for (Map<String, Object> g : gone) {
      if (g.get("end_snapshot") != null) {
        continue;
      }
      Map<String, Object> ended = new HashMap<>(g);
      ended.put("end_snapshot", row.get("end_snapshot"));
      if (ended.equals(new HashMap<>(row))) {
        return g;
      }
    }
    return null;
  }

  /** Statistics rows are keyed by their id columns: the table (and the column). */
  private static boolean sameKey(TableDef def, Map<String, Object> a, Map<String, Object> b) {
    int keys = "ducklake_table_stats".equals(def.name()) ? 1 : 2;
    for (int i = 0; i < keys; i++) {
      String column = def.columns().get(i).name();
      if (!Objects.equals(a.get(column), b.get(column))) {
        return false;
      }
    }
    return true;
  }

  /** A row as the row model's record: each column to its component, in DuckLake's order. */
  static DuckLakeRow typed(TableDef def, Map<String, Object> row) {
    Class<? extends DuckLakeRow> type = TYPES.get(def.name());
    RecordComponent[] components = type.getRecordComponents();
    Object[] args = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      Object v = row.get(def.columns().get(i).name());
      args[i] = v == null ? null : convert(v, types[i], def, i);
    }
    try {
      Constructor<? extends DuckLakeRow> make = type.getDeclaredConstructor(types);
      return make.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build a " + def.name() + " row", e);
    }
  }

  private static Object convert(Object v, Class<?> to, TableDef def, int column) {
    if (to == Long.class && v instanceof Number n) {
      return n.longValue();
    }
    if (to == Instant.class) {
      if (v instanceof OffsetDateTime t) {
        return t.toInstant();
      }
      if (v instanceof Timestamp t) {
        return t.toInstant();
      }
      if (v instanceof LocalDateTime t) {
        return t.toInstant(ZoneOffset.UTC);
      }
    }
    if (to == UUID.class && v instanceof String s) {
      return UUID.fromString(s);
    }
    if (to == String.class && !(v instanceof String)) {
      return v.toString();
    }
    if (!to.isInstance(v)) {
      throw new InvalidArgumentException(
          def.name()
              + "."
              + def.columns().get(column).name()
              + " holds a "
              + v.getClass().getSimpleName()
              + " where a "
              + to.getSimpleName()
              + " belongs");
    }
    return v;
  }

  private static Map<String, Class<? extends DuckLakeRow>> rowTypes() {
    Map<String, Class<? extends DuckLakeRow>> out = new HashMap<>();
    for (Class<?> c : DuckLakeRow.class.getPermittedSubclasses()) {
      try {
        TableDef def = (TableDef) c.getField("DEF").get(null);
        out.put(def.name(), c.asSubclass(DuckLakeRow.class));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(c + " has no table definition", e);
      }
    }
    return Map.copyOf(out);
  }

  /** The rows {@code sql} returns, each by column label, values compared by content. */
  static List<Map<String, Object>> rows(Connection connection, String sql) throws SQLException {
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      ResultSetMetaData meta = rs.getMetaData();
      List<Map<String, Object>> out = new ArrayList<>();
      while (rs.next()) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          row.put(meta.getColumnLabel(i), comparable(rs.getObject(i)));
        }
        out.add(Collections.unmodifiableMap(row));
      }
      return out;
    }
  }

  /**
   * A value that compares by content: DuckDB's JDBC arrays, structs and blobs compare by identity,
   * so a nested value read twice would differ from itself.
   */
  static Object comparable(Object v) throws SQLException {
    if (v instanceof java.sql.Array a) {
      Object[] items = (Object[]) a.getArray();
      List<Object> out = new ArrayList<>(items.length);
      for (Object item : items) {
        out.add(comparable(item));
      }
      return out;
    }
    if (v instanceof java.sql.Struct st) {
      List<Object> out = new ArrayList<>();
      for (Object item : st.getAttributes()) {
        out.add(comparable(item));
      }
      return out;
    }
    if (v instanceof java.sql.Blob b) {
      return java.util.HexFormat.of().formatHex(b.getBytes(1, (int) b.length()));
    }
    if (v instanceof byte[] bytes) {
      return java.util.HexFormat.of().formatHex(bytes);
    }
    return v;
  }

  private static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }
}
