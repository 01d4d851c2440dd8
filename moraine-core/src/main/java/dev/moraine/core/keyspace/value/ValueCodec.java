package dev.moraine.core.keyspace.value;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import dev.moraine.core.keyspace.KeyspaceDataException;
import dev.moraine.core.keyspace.key.Key;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
    // The key's printable form is built only for an error.
    int offset =
        ValueFrame.isFramed(value)
            ? ValueFrame.HEADER_LENGTH
            : ValueFrame.payloadOffset(key.printable(), value);
    Message message;
    try {
      message = expected.getParserForType().parseFrom(value, offset, value.length - offset);
    } catch (InvalidProtocolBufferException e) {
      throw new KeyspaceDataException(
          key.printable(),
          "payload is not a valid "
              + expected.getDescriptorForType().getName()
              + ": "
              + e.getMessage(),
          e);
    }
    String unknown = unknownFieldPath(message, expected.getDescriptorForType().getName());
    if (unknown != null) {
      throw new KeyspaceDataException(
          key.printable(), "payload carries a field format 9 does not define, in " + unknown);
    }
    String problem = ValueConsistency.problem(key, message);
    if (problem != null) {
      throw new KeyspaceDataException(key.printable(), problem);
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
    // Only message-typed fields can nest unknown fields; most values have none, and then this is
    // the one check above, with no reflective walk of the value's fields.
    for (FieldDescriptor f : nestedFields(message.getDescriptorForType())) {
      if (f.isRepeated()) {
        int count = message.getRepeatedFieldCount(f);
        for (int i = 0; i < count; i++) {
          String p =
              unknownFieldPath((Message) message.getRepeatedField(f, i), path + "." + f.getName());
          if (p != null) {
            return p;
          }
        }
      } else if (message.hasField(f)) {
        String p = unknownFieldPath((Message) message.getField(f), path + "." + f.getName());
        if (p != null) {
          return p;
        }
      }
    }
    return null;
  }

  /**
   * Per message type, its message-typed fields other than maps (a map's entries are generated
   * messages that carry no fields of ours), in declaration order. Computed once per type;
   * descriptors are immutable, so the shared lists never change.
   */
  private static final Map<Descriptor, List<FieldDescriptor>> NESTED = new ConcurrentHashMap<>();

  private static List<FieldDescriptor> nestedFields(Descriptor type) {
    List<FieldDescriptor> known = NESTED.get(type);
    if (known != null) {
      return known;
    }
    List<FieldDescriptor> nested = new ArrayList<>();
    for (FieldDescriptor f : type.getFields()) {
      if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !f.isMapField()) {
        nested.add(f);
      }
    }
    NESTED.putIfAbsent(type, List.copyOf(nested));
    return NESTED.get(type);
  }
}
