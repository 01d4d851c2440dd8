package dev.moraine.cli;

import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The one Parquet codec the demo uses, uncompressed pages, given to parquet-java so that it does
 * not build its default codec factory (which loads Hadoop's compression classes, absent here).
 */
final class UncompressedCodecs implements CompressionCodecFactory {

  private static final Codec CODEC = new Codec();

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    requireUncompressed(codec);
    return CODEC;
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    requireUncompressed(codec);
    return CODEC;
  }

  @Override
  public void release() {}

  /**
   * @throws IllegalArgumentException for any codec other than UNCOMPRESSED; nothing is created
   */
  private static void requireUncompressed(CompressionCodecName codec) {
    if (codec != CompressionCodecName.UNCOMPRESSED) {
      throw new IllegalArgumentException("only uncompressed Parquet pages are supported: " + codec);
    }
  }

  /** Pages pass through as they are, in both directions. */
  private static final class Codec implements BytesInputCompressor, BytesInputDecompressor {
    @Override
    public BytesInput compress(BytesInput bytes) {
      return bytes;
    }

    @Override
    public CompressionCodecName getCodecName() {
      return CompressionCodecName.UNCOMPRESSED;
    }

    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) {
      return bytes;
    }

    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int size) {
      ByteBuffer slice = input.duplicate();
      slice.limit(slice.position() + compressedSize);
      output.put(slice);
    }

    @Override
    public void release() {}
  }
}
