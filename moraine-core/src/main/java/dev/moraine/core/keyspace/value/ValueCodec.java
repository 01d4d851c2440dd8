package dev.moraine.core.keyspace.value;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import dev.moraine.core.keyspace.KeyspaceDataException;
import dev.moraine.core.keyspace.key.Key;
import java.util.List;
import java.util.Map;

/**
 * Encodes and decodes the framed value of a key (RFC 0002 §7): the message {@link ValueKinds} names
 * for the key, in the frame of {@link ValueFrame}. Stateless and thread-safe.
 *
 * <p>A decoded value is returned only when every check passes: the frame header, a payload that
 * parses completely as that message with valid UTF-8 strings, no field unknown to format 9, and the
 * key/value agreements of {@link ValueConsistency}. Anything else is a {@link
 * KeyspaceDataException} naming the key. The frame has no checksum: a payload altered into another
 * well-formed message of the same type (for example one cut exactly at a field boundary) cannot be
 * told apart here; SlateDB's block and WAL checksums are what guard the stored bytes.
 */
public final class ValueCodec {
  private ValueCodec() {}

  /**
   * Frames {@code value} for {@code key}.
   *
   * @throws IllegalArgumentException {@code value} is not the message the key holds, or disagrees
   *     with the key's ids; nothing is encoded
   */
  public static byte[] encode(Key key, Message value) {
    Message expected = expectedMessage(key);
    if (!expected.getDescriptorForType().equals(value.getDescriptorForType())) {
      throw new IllegalArgumentException(
          key.printable()
              + " holds "
              + expected.getDescriptorForType().getName()
              + ", not "
              + value.getDescriptorForType().getName());
    }
    String problem = ValueConsistency.problem(key, value);
    if (problem != null) {
      throw new IllegalArgumentException(key.printable() + ": " + problem);
    }
    return ValueFrame.frame(value);
  }

  /**
   * Decodes the value stored under {@code key}.
   *
   * @throws KeyspaceDataException the stored bytes are not a valid value for this key (see the
   *     class comment); nothing is returned and the store is untouched
   * @throws IllegalArgumentException the key holds no framed message (an index entry, or the
   *     superseded {@code 06 06} chunk range)
   */
  public static Message decode(Key key, byte[] value) {
    Message expected = expectedMessage(key);
    String name = key.printable();
    int offset = ValueFrame.payloadOffset(name, value);
    Message message;
    try {
      message = expected.getParserForType().parseFrom(value, offset, value.length - offset);
    } catch (InvalidProtocolBufferException e) {
      throw new KeyspaceDataException(
          name,
          "payload is not a valid "
              + expected.getDescriptorForType().getName()
              + ": "
              + e.getMessage(),
          e);
    }
    String unknown = unknownFieldPath(message, expected.getDescriptorForType().getName());
    if (unknown != null) {
      throw new KeyspaceDataException(
          name, "payload carries a field format 9 does not define, in " + unknown);
    }
    String problem = ValueConsistency.problem(key, message);
    if (problem != null) {
      throw new KeyspaceDataException(name, problem);
    }
    return message;
  }

  /**
   * Decodes the value stored under {@code key} as {@code type}.
   *
   * @throws KeyspaceDataException as {@link #decode(Key, byte[])}
   * @throws IllegalArgumentException the key holds another message type
   */
  public static <T extends Message> T decode(Key key, byte[] value, Class<T> type) {
    Message expected = expectedMessage(key);
    if (!type.isInstance(expected)) {
      throw new IllegalArgumentException(
          key.printable()
              + " holds "
              + expected.getDescriptorForType().getName()
              + ", not "
              + type.getSimpleName());
    }
    return type.cast(decode(key, value));
  }

  private static Message expectedMessage(Key key) {
    return ValueKinds.messageFor(key)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    key.printable() + " holds no framed message (see IndexEntryValues)"));
  }

  /**
   * The path of the first message (this one or a nested one) that carries unknown fields, or null.
   * Format 9 writers emit none, so an unknown field is a value of another format or damage.
   */
  private static String unknownFieldPath(Message message, String path) {
    if (!message.getUnknownFields().asMap().isEmpty()) {
      return path;
    }
    for (Map.Entry<FieldDescriptor, Object> e : message.getAllFields().entrySet()) {
      FieldDescriptor f = e.getKey();
      if (f.getJavaType() != FieldDescriptor.JavaType.MESSAGE || f.isMapField()) {
        continue;
      }
      String childPath = path + "." + f.getName();
      if (f.isRepeated()) {
        for (Object child : (List<?>) e.getValue()) {
          String p = unknownFieldPath((Message) child, childPath);
          if (p != null) {
            return p;
          }
        }
      } else {
        String p = unknownFieldPath((Message) e.getValue(), childPath);
        if (p != null) {
          return p;
        }
      }
    }
    return null;
  }
}
