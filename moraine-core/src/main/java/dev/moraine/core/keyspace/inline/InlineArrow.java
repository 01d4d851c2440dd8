package dev.moraine.core.keyspace.inline;

import dev.moraine.core.keyspace.KeyspaceDataException;
import dev.moraine.core.keyspace.key.Key;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.Arrays;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageMetadataResult;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.MetadataVersion;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ValueVectorUtility;

/**
 * The Arrow IPC forms of inlined data (RFC 0002 §9.3).
 *
 * <ul>
 *   <li>A schema record ({@code InlineSchemaValue.arrow_schema}) is an IPC stream holding the
 *       schema message and no batch, ended by the end-of-stream marker.
 *   <li>A chunk body ({@code InlineChunkValue.body}) is a little-endian 32-bit length n, n bytes of
 *       one RecordBatch message (flatbuffer, no continuation marker), then the body buffers the
 *       message's offsets point into. No dictionaries, no compression.
 * </ul>
 *
 * Decoding checks everything it can and refuses the rest with a {@link KeyspaceDataException}
 * naming the key: a decoded chunk has been loaded into vectors and fully validated (buffer sizes,
 * offsets, lengths), and its row count equals the one its record states. Stateless and thread-safe;
 * memory comes from the caller's allocator.
 */
public final class InlineArrow {
  private static final IpcOption STREAM = new IpcOption(false, MetadataVersion.V5);
  private static final IpcOption BARE_LENGTH = new IpcOption(true, MetadataVersion.V5);

  private InlineArrow() {}

  /** The schema record for {@code schema}: schema message, then end of stream. */
  public static byte[] encodeSchema(Schema schema) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      WriteChannel channel = new WriteChannel(Channels.newChannel(out));
      MessageSerializer.serialize(channel, schema, STREAM);
      ArrowStreamWriter.writeEndOfStream(channel, STREAM);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * Reads a schema record.
   *
   * @param key the record's key, named by errors
   * @throws KeyspaceDataException the bytes are not one schema message optionally followed by the
   *     end-of-stream marker
   */
  public static Schema decodeSchema(Key key, byte[] stream) {
    try (ReadChannel channel =
        new ReadChannel(Channels.newChannel(new ByteArrayInputStream(stream)))) {
      MessageMetadataResult first = MessageSerializer.readMessage(channel);
      if (first == null) {
        throw bad(key, "schema stream holds no message");
      }
      if (first.getMessage().headerType() != MessageHeader.Schema) {
        throw bad(key, "schema stream does not start with a schema message");
      }
      if (first.getMessageBodyLength() != 0) {
        throw bad(key, "schema message declares a body");
      }
      Schema schema = MessageSerializer.deserializeSchema(first.getMessage());
      if (MessageSerializer.readMessage(channel) != null) {
        throw bad(key, "schema stream holds more than the schema message");
      }
      return schema;
    } catch (KeyspaceDataException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new KeyspaceDataException(key.printable(), "schema stream does not decode: " + e, e);
    }
  }

  /** The chunk body of the batch held by {@code root} (all its rows). */
  public static byte[] encodeChunk(VectorSchemaRoot root) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ArrowRecordBatch batch = new VectorUnloader(root).getRecordBatch()) {
      WriteChannel channel = new WriteChannel(Channels.newChannel(out));
      // The bare-length form writes the 32-bit little-endian metadata length with no continuation
      // marker, then the padded message, then the body buffers: exactly the chunk body layout.
      MessageSerializer.serialize(channel, batch, BARE_LENGTH);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * Reads a chunk body into a new root over {@code schema}. The caller owns (and closes) the root.
   *
   * @param key the chunk's key, named by errors
   * @param schema the schema of the chunk's schema version
   * @param rowCount the row count the chunk's record states
   * @throws KeyspaceDataException the body is short, not a record batch, compressed, of another row
   *     count, or its buffers do not describe valid vectors of {@code schema}; no memory stays
   *     allocated
   */
  public static VectorSchemaRoot decodeChunk(
      Key key, Schema schema, byte[] body, long rowCount, BufferAllocator allocator) {
    if (body.length < 4) {
      throw bad(key, "chunk body of " + body.length + " byte(s) has no length prefix");
    }
    long metaLength =
        ByteBuffer.wrap(body, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xffffffffL;
    if (metaLength > body.length - 4L) {
      throw bad(key, "chunk message length " + metaLength + " runs past the body");
    }
    int bodyStart = 4 + (int) metaLength;
    VectorSchemaRoot root = null;
    try {
      ByteBuffer meta =
          ByteBuffer.wrap(Arrays.copyOfRange(body, 4, bodyStart)).order(ByteOrder.LITTLE_ENDIAN);
      Message message = Message.getRootAsMessage(meta);
      if (message.headerType() != MessageHeader.RecordBatch) {
        throw bad(key, "chunk message is not a record batch");
      }
      short version = message.version();
      if (version != MetadataVersion.V4.toFlatbufID()
          && version != MetadataVersion.V5.toFlatbufID()) {
        throw bad(key, "chunk message has metadata version " + version);
      }
      if (message.bodyLength() < 0 || message.bodyLength() > body.length - (long) bodyStart) {
        throw bad(
            key,
            "chunk message declares a body of "
                + message.bodyLength()
                + " byte(s), "
                + (body.length - bodyStart)
                + " follow it");
      }
      RecordBatch batchMeta = (RecordBatch) message.header(new RecordBatch());
      if (batchMeta.compression() != null) {
        throw bad(key, "chunk is compressed; the format stores uncompressed chunks only");
      }
      if (batchMeta.length() != rowCount) {
        throw bad(
            key,
            "chunk holds "
                + batchMeta.length()
                + " row(s), its record states "
                + Long.toUnsignedString(rowCount));
      }
      root = VectorSchemaRoot.create(schema, allocator);
      int dataLength = body.length - bodyStart;
      ArrowBuf data = allocator.buffer(dataLength);
      ArrowRecordBatch batch;
      try {
        data.setBytes(0, body, bodyStart, dataLength);
        // Takes over our reference to data: the batch's buffers are slices of it, released when
        // the batch closes.
        batch = MessageSerializer.deserializeRecordBatch(batchMeta, data);
      } catch (RuntimeException | IOException e) {
        if (data.getReferenceManager().getRefCount() > 0) {
          data.close();
        }
        throw e;
      }
      try (batch) {
        new VectorLoader(root).load(batch);
      }
      for (FieldVector vector : root.getFieldVectors()) {
        if (vector instanceof DecimalVector decimals) {
          // Arrow Java's full validation refuses a decimal with exactly as many digits as its
          // precision; the buffers are validated, and the digits checked here instead.
          ValueVectorUtility.validate(decimals);
          checkDigits(key, decimals);
        } else if (vector instanceof MapVector map) {
          // Arrow Java's validator takes a map for a list and refuses its type; the entries are
          // validated in full and the offsets checked here instead.
          ValueVectorUtility.validateFull(map.getDataVector());
          checkOffsets(key, map);
        } else {
          ValueVectorUtility.validateFull(vector);
        }
      }
      VectorSchemaRoot loaded = root;
      root = null;
      return loaded;
    } catch (KeyspaceDataException e) {
      throw e;
    } catch (RuntimeException | IOException e) {
      throw new KeyspaceDataException(key.printable(), "chunk body does not decode: " + e, e);
    } finally {
      if (root != null) {
        root.close();
      }
    }
  }

  /**
   * Refuses a map whose offsets do not start at 0, decrease, or run past its entries' count. Arrow
   * Java takes that count from the last offset when it loads the batch, so a last offset past the
   * entries written is not caught here (RFC 0004 §9).
   */
  private static void checkOffsets(Key key, MapVector map) {
    int count = map.getValueCount();
    if (count == 0) {
      return;
    }
    if (map.getOffsetBuffer().capacity() < (long) (count + 1) * MapVector.OFFSET_WIDTH) {
      throw bad(key, "map field " + map.getName() + " has a short offset buffer");
    }
    int previous = map.getOffsetBuffer().getInt(0);
    if (previous != 0) {
      throw bad(key, "map field " + map.getName() + " has offsets that do not start at 0");
    }
    for (int i = 1; i <= count; i++) {
      int offset = map.getOffsetBuffer().getInt((long) i * MapVector.OFFSET_WIDTH);
      if (offset < previous || offset > map.getDataVector().getValueCount()) {
        throw bad(key, "map field " + map.getName() + " has offsets out of order or range");
      }
      previous = offset;
    }
  }

  /** Refuses a decimal cell with more digits than its field's precision. */
  private static void checkDigits(Key key, DecimalVector vector) {
    BigInteger limit = BigInteger.TEN.pow(vector.getPrecision());
    for (int i = 0; i < vector.getValueCount(); i++) {
      if (!vector.isNull(i) && vector.getObject(i).unscaledValue().abs().compareTo(limit) >= 0) {
        throw bad(
            key,
            "decimal in row "
                + i
                + " of field "
                + vector.getName()
                + " has more than "
                + vector.getPrecision()
                + " digits");
      }
    }
  }

  private static KeyspaceDataException bad(Key key, String problem) {
    return new KeyspaceDataException(key.printable(), problem);
  }
}
