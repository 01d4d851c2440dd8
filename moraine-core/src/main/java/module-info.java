/**
 * The Moraine catalog engine over the {@code KvStore} SPI.
 *
 * <p>What a host uses is exported: the catalog API and its records ({@code
 * dev.moraine.core.catalog}, {@code .catalog.model}), the store SPI a binding implements ({@code
 * .kv}), the lake's keyspace codecs ({@code .keyspace.*}) and index key encoding ({@code .index}),
 * the catalog dump and the DuckLake row rendering. The engine behind them is not: the commit path
 * ({@code .commit}), the verbs ({@code .verb}), the read model ({@code .view}), the inline Arrow
 * encoding ({@code .inline}) and the opening of a lake ({@code .lake}).
 */
module dev.moraine.core {
  requires transitive dev.moraine.ducklake;
  requires transitive com.google.protobuf;
  requires org.slf4j;
  requires org.pcollections;
  requires com.github.benmanes.caffeine;
  requires org.apache.arrow.vector;
  requires org.apache.arrow.memory.core;
  requires org.apache.arrow.format;

  exports dev.moraine.core.catalog;
  exports dev.moraine.core.catalog.model;
  exports dev.moraine.core.kv;
  exports dev.moraine.core.keyspace;
  exports dev.moraine.core.keyspace.key;
  exports dev.moraine.core.keyspace.value;
  exports dev.moraine.core.keyspace.inline;
  exports dev.moraine.core.keyspace.proto;
  exports dev.moraine.core.index;
  exports dev.moraine.core.dump;
  exports dev.moraine.core.rows;
}
