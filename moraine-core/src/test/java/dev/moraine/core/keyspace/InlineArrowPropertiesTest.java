package dev.moraine.core.keyspace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.moraine.core.keyspace.inline.InlineArrow;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

class InlineArrowPropertiesTest {
  @Property(tries = 300)
  void chunks_and_schemas_round_trip(
      @ForAll @Size(max = 40) List<Optional<Long>> a,
      @ForAll @Size(max = 40) List<Optional<String>> b) {
    int rows = Math.min(a.size(), b.size());
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(InlineArrowTest.SCHEMA, allocator)) {
      BigIntVector av = (BigIntVector) root.getVector("a");
      VarCharVector bv = (VarCharVector) root.getVector("b");
      for (int i = 0; i < rows; i++) {
        if (a.get(i).isPresent()) {
          av.setSafe(i, a.get(i).get());
        } else {
          av.setNull(i);
        }
        if (b.get(i).isPresent()) {
          bv.setSafe(i, b.get(i).get().getBytes(StandardCharsets.UTF_8));
        } else {
          bv.setNull(i);
        }
      }
      root.setRowCount(rows);
      byte[] body = InlineArrow.encodeChunk(root);
      var schema =
          InlineArrow.decodeSchema(
              InlineArrowTest.SCHEMA_KEY, InlineArrow.encodeSchema(InlineArrowTest.SCHEMA));
      try (VectorSchemaRoot back =
          InlineArrow.decodeChunk(InlineArrowTest.CHUNK_KEY, schema, body, rows, allocator)) {
        assertEquals(rows, back.getRowCount());
        for (int i = 0; i < rows; i++) {
          assertEquals(a.get(i).orElse(null), ((BigIntVector) back.getVector("a")).getObject(i));
          var text = ((VarCharVector) back.getVector("b")).getObject(i);
          assertEquals(b.get(i).orElse(null), text == null ? null : text.toString());
        }
      }
    }
  }
}
