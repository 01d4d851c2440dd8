package dev.moraine.parquet;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * The page codecs the compaction reads and writes, given to parquet-java in place of its default
 * codec factory (which loads Hadoop's compression classes, absent here): uncompressed pages, Snappy
 * (DuckDB's default) through snappy-java, ZSTD through zstd-jni, and GZIP through the JDK.
 * Stateless; one instance serves any number of readers and writers at once.
 */
public final class ParquetCodecs implements CompressionCodecFactory {
  /** The one instance. */
  public static final ParquetCodecs INSTANCE = new ParquetCodecs();

  private ParquetCodecs() {}

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    return new Codec(supported(codec));
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    return new Codec(supported(codec));
  }

  @Override
  public void release() {}

  /**
   * @throws IllegalArgumentException for a codec other than the four named above
   */
  static CompressionCodecName supported(CompressionCodecName codec) {
    return switch (codec) {
      case UNCOMPRESSED, SNAPPY, ZSTD, GZIP -> codec;
      default ->
          throw new IllegalArgumentException(
              "Parquet pages compressed with "
                  + codec
                  + " are not supported (uncompressed, SNAPPY, ZSTD and GZIP are)");
    };
  }

  private record Codec(CompressionCodecName name)
      implements BytesInputCompressor, BytesInputDecompressor {
    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
      byte[] in = bytes.toByteArray();
      return BytesInput.from(
          switch (name) {
            case SNAPPY -> Snappy.compress(in);
            case ZSTD -> Zstd.compress(in);
            case GZIP -> gzip(in);
            default -> in;
          });
    }

    @Override
    public CompressionCodecName getCodecName() {
      return name;
    }

    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      byte[] in = bytes.toByteArray();
      byte[] out =
          switch (name) {
            case SNAPPY -> Snappy.uncompress(in);
            case ZSTD -> Zstd.decompress(in, uncompressedSize);
            case GZIP -> gunzip(in);
            default -> in;
          };
      if (out.length != uncompressedSize) {
        throw new IOException(
            "a "
                + name
                + " page decompressed to "
                + out.length
                + " bytes, not "
                + uncompressedSize);
      }
      return BytesInput.from(out);
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int size)
        throws IOException {
      byte[] in = new byte[compressedSize];
      input.duplicate().get(in);
      output.put(decompress(BytesInput.from(in), size).toByteArray());
    }

    @Override
    public void release() {}

    private static byte[] gzip(byte[] in) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (GZIPOutputStream z = new GZIPOutputStream(out)) {
        z.write(in);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return out.toByteArray();
    }

    private static byte[] gunzip(byte[] in) throws IOException {
      try (GZIPInputStream z = new GZIPInputStream(new ByteArrayInputStream(in))) {
        return z.readAllBytes();
      }
    }
  }
}
