package dev.moraine.core.keyspace.key;

import dev.moraine.core.keyspace.KeyspaceDataException;
import java.util.HexFormat;

/**
 * Encodes and decodes keys (RFC 0002 §3): each enum level is one byte, declaration index + 2; each
 * id is 8 bytes big-endian; the one variable-length component (an index value) is an escaped byte
 * string ended by {@code 00}. Decoding is exact: an unknown discriminant, a short key or a trailing
 * byte is refused. Stateless and thread-safe.
 */
public final class KeyCodec {
  private KeyCodec() {}

  /** The bytes of {@code key}. */
  public static byte[] encode(Key key) {
    KeyWriter w = new KeyWriter();
    w.tag(key.subspace().tag());
    if (key instanceof SysKey k) {
      k.write(w);
    } else if (key instanceof SnapshotKey k) {
      k.write(w);
    } else if (key instanceof CurrentKey k) {
      writeCurrent(k, w);
    } else if (key instanceof HistoryKey k) {
      k.write(w);
    } else if (key instanceof InlineKey k) {
      writeInline(k, w);
    } else if (key instanceof IndexEntryKey k) {
      writeIndex(k, w);
    } else if (key instanceof SchemaVersionKey k) {
      k.write(w);
    } else {
      ((ChangelogKey) key).write(w);
    }
    return w.toBytes();
  }

  /**
   * Decodes a whole key.
   *
   * @throws KeyspaceDataException the bytes are not exactly one key of the format; the exception
   *     names them in hex. Nothing else happened.
   */
  public static Key decode(byte[] bytes) {
    KeyReader r = new KeyReader(bytes);
    try {
      int t = r.tag();
      Subspace subspace = Subspace.ofTag(t);
      if (subspace == null) {
        throw r.unknown("subspace", t);
      }
      Key key =
          switch (subspace) {
            case SYS -> SysKey.read(r);
            case SNAPSHOT -> SnapshotKey.read(r);
            case CURRENT -> readCurrent(r);
            case HISTORY -> HistoryKey.read(r);
            case INLINE -> readInline(r);
            case INDEX -> readIndex(r);
            case SCHEMA_VERSION -> SchemaVersionKey.read(r);
            case CHANGELOG -> ChangelogKey.read(r);
          };
      r.finish();
      return key;
    } catch (KeyReader.MalformedKeyException e) {
      throw new KeyspaceDataException(hex(bytes), "key does not decode: " + e.getMessage());
    }
  }

  /**
   * The printable form of stored key bytes: the decoded key's {@link Key#printable()} or, when the
   * bytes do not decode, {@code x'<hex>'}. Never throws on any input.
   */
  public static String printable(byte[] bytes) {
    try {
      return decode(bytes).printable();
    } catch (KeyspaceDataException e) {
      return hex(bytes);
    }
  }

  static String hex(byte[] bytes) {
    return "x'" + HexFormat.of().formatHex(bytes) + "'";
  }

  // ---- current (04) and entity components ----

  private static void writeCurrent(CurrentKey key, KeyWriter w) {
    if (key instanceof CurrentKey.Entity e) {
      w.tag(0x02);
      writeEntity(e.entity(), w);
    } else {
      w.tag(0x03);
      w.u64(((CurrentKey.ScheduledDeletion) key).dataFileId());
    }
  }

  private static CurrentKey readCurrent(KeyReader r) {
    int t = r.tag();
    return switch (t) {
      case 0x02 -> new CurrentKey.Entity(readEntity(r));
      case 0x03 -> new CurrentKey.ScheduledDeletion(r.u64());
      default -> throw r.unknown("current", t);
    };
  }

  static void writeEntity(EntityKey entity, KeyWriter w) {
    w.tag(entity.kind().tag());
    for (long id : entity.ids()) {
      w.u64(id);
    }
  }

  static EntityKey readEntity(KeyReader r) {
    int t = r.tag();
    EntityKind kind = EntityKind.ofTag(t);
    if (kind == null) {
      throw r.unknown("entity kind", t);
    }
    long[] ids = new long[kind.arity()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = r.u64();
    }
    return EntityKey.of(kind, ids);
  }

  // ---- inline (06) ----

  private static void writeInline(InlineKey key, KeyWriter w) {
    if (key instanceof InlineKey.Schema k) {
      w.tag(0x02);
      w.u64(k.tableId());
      w.u64(k.schemaVersion());
    } else if (key instanceof InlineKey.Record k) {
      w.tag(k.form().tag);
      writeOp(k.op(), w);
    } else if (key instanceof InlineKey.FileDeleteTable k) {
      w.tag(0x05);
      w.u64(k.tableId());
    } else if (key instanceof InlineKey.LegacyChunkRange k) {
      w.tag(0x06);
      w.u64(k.tableId());
      w.u64(k.rowIdEnd());
    } else if (key instanceof InlineKey.SchemaDropped k) {
      w.tag(0x07);
      w.u64(k.tableId());
      w.u64(k.schemaVersion());
    } else if (key instanceof InlineKey.ChunkLocator k) {
      w.tag(0x08);
      w.u64(k.tableId());
      w.u64(k.rowIdEnd());
      w.u64(k.schemaVersion());
      w.u64(k.beginSnapshot());
      w.u64(k.chunkSeq());
    } else {
      InlineKey.RowTombstone k = (InlineKey.RowTombstone) key;
      w.tag(0x09);
      w.u64(k.tableId());
      w.u64(k.rowId());
      w.u64(k.endSnapshot());
    }
  }

  private static InlineKey readInline(KeyReader r) {
    int t = r.tag();
    return switch (t) {
      case 0x02 -> new InlineKey.Schema(r.u64(), r.u64());
      case 0x03 -> new InlineKey.Record(InlineKey.Form.LIVE, readOp(r));
      case 0x04 -> new InlineKey.Record(InlineKey.Form.ARCHIVED, readOp(r));
      case 0x05 -> new InlineKey.FileDeleteTable(r.u64());
      case 0x06 -> new InlineKey.LegacyChunkRange(r.u64(), r.u64());
      case 0x07 -> new InlineKey.SchemaDropped(r.u64(), r.u64());
      case 0x08 -> new InlineKey.ChunkLocator(r.u64(), r.u64(), r.u64(), r.u64(), r.u64());
      case 0x09 -> new InlineKey.RowTombstone(r.u64(), r.u64(), r.u64());
      default -> throw r.unknown("inline", t);
    };
  }

  private static void writeOp(InlineOp op, KeyWriter w) {
    if (op instanceof InlineOp.InsertChunk o) {
      w.tag(0x02);
      w.u64(o.tableId());
      w.u64(o.schemaVersion());
      w.u64(o.beginSnapshot());
      w.u64(o.chunkSeq());
    } else if (op instanceof InlineOp.LegacyInlineDelete o) {
      w.tag(0x03);
      w.u64(o.tableId());
      w.u64(o.rowId());
    } else {
      InlineOp.FileDelete o = (InlineOp.FileDelete) op;
      w.tag(0x04);
      w.u64(o.tableId());
      w.u64(o.dataFileId());
      w.u64(o.rowId());
    }
  }

  private static InlineOp readOp(KeyReader r) {
    int t = r.tag();
    return switch (t) {
      case 0x02 -> new InlineOp.InsertChunk(r.u64(), r.u64(), r.u64(), r.u64());
      case 0x03 -> new InlineOp.LegacyInlineDelete(r.u64(), r.u64());
      case 0x04 -> new InlineOp.FileDelete(r.u64(), r.u64(), r.u64());
      default -> throw r.unknown("inline operation", t);
    };
  }

  // ---- index (07) ----

  private static void writeIndex(IndexEntryKey key, KeyWriter w) {
    if (key instanceof IndexEntryKey.Unique k) {
      w.tag(0x02);
      w.u64(k.indexId());
      w.byteString(k.value());
    } else {
      IndexEntryKey.Multi k = (IndexEntryKey.Multi) key;
      w.tag(0x03);
      w.u64(k.indexId());
      w.byteString(k.value());
      w.u64(k.rowId());
    }
  }

  private static IndexEntryKey readIndex(KeyReader r) {
    int t = r.tag();
    return switch (t) {
      case 0x02 -> new IndexEntryKey.Unique(r.u64(), r.byteString());
      case 0x03 -> {
        long indexId = r.u64();
        byte[] value = r.byteString();
        yield new IndexEntryKey.Multi(indexId, value, r.u64());
      }
      default -> throw r.unknown("index", t);
    };
  }
}
