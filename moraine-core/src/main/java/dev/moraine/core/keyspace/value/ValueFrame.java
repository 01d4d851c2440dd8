package dev.moraine.core.keyspace.value;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import dev.moraine.core.keyspace.KeyspaceDataException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The value frame (RFC 0002 §7): the magic {@code 4d 52 4e 45} ("MRNE"), one encoding-version byte
 * (0, the only version), then the message in protobuf wire format up to the end of the value. There
 * is no length and no checksum; SlateDB checksums the blocks and WAL objects that hold the bytes.
 */
public final class ValueFrame {
  /** The encoding version written, and the newest read. */
  public static final int ENCODING_VERSION = 0;

  /** Bytes before the payload: magic and version. */
  public static final int HEADER_LENGTH = 5;

  private static final byte[] MAGIC = {0x4d, 0x52, 0x4e, 0x45};

  private ValueFrame() {}

  /** The magic, a fresh copy. */
  public static byte[] magic() {
    return MAGIC.clone();
  }

  /** Frames {@code message}: header, then its serialized bytes. */
  public static byte[] frame(MessageLite message) {
    int size = message.getSerializedSize();
    byte[] out = new byte[HEADER_LENGTH + size];
    System.arraycopy(MAGIC, 0, out, 0, MAGIC.length);
    out[MAGIC.length] = ENCODING_VERSION;
    CodedOutputStream cos = CodedOutputStream.newInstance(out, HEADER_LENGTH, size);
    try {
      message.writeTo(cos);
      cos.checkNoSpaceLeft();
    } catch (IOException e) {
      // Writing into an array of the exact size cannot fail; a failure is a bug in protobuf-java.
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * Whether {@code value} starts with a header {@link #payloadOffset} accepts, so that its payload
   * begins at {@link #HEADER_LENGTH}; when false, {@link #payloadOffset} says why.
   */
  public static boolean isFramed(byte[] value) {
    return value.length >= HEADER_LENGTH
        && value[0] == MAGIC[0]
        && value[1] == MAGIC[1]
        && value[2] == MAGIC[2]
        && value[3] == MAGIC[3]
        && (value[MAGIC.length] & 0xff) <= ENCODING_VERSION;
  }

  /**
   * Checks the header of a stored value and returns the offset of its payload.
   *
   * @param key the printable key, named by the error
   * @throws KeyspaceDataException the value is shorter than the header, carries another magic, or
   *     an encoding version above {@link #ENCODING_VERSION}; nothing was returned
   */
  public static int payloadOffset(String key, byte[] value) {
    if (value.length < HEADER_LENGTH) {
      throw new KeyspaceDataException(
          key, "value of " + value.length + " byte(s) is shorter than the 5-byte frame header");
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (value[i] != MAGIC[i]) {
        throw new KeyspaceDataException(key, "value does not start with the MRNE magic");
      }
    }
    int version = value[MAGIC.length] & 0xff;
    if (version > ENCODING_VERSION) {
      throw new KeyspaceDataException(
          key,
          "value encoding version "
              + version
              + " is newer than the newest this library reads ("
              + ENCODING_VERSION
              + ")");
    }
    return HEADER_LENGTH;
  }
}
