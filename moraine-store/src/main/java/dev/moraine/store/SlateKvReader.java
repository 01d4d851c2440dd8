package dev.moraine.store;

import dev.moraine.core.kv.KvException;
import dev.moraine.core.kv.KvReader;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A read-only handle: one SlateDB {@code DbReader}, following the latest durable state or pinned at
 * a checkpoint. Never writes to the store. Thread-safe; close may race other calls.
 */
final class SlateKvReader extends NativeReadView implements KvReader {
  private static final Logger LOG = LoggerFactory.getLogger(SlateKvReader.class);

  private final Optional<String> walStore;

  SlateKvReader(long address, String walStoreLocation) {
    super("reader", address, Native::readerFree, null);
    this.walStore = Optional.ofNullable(walStoreLocation);
  }

  @Override
  public Optional<String> walStore() {
    return walStore;
  }

  @Override
  byte[] nativeGet(long address, byte[] key) {
    return Native.readerGet(address, key);
  }

  @Override
  long nativeScan(long address, byte[] start, byte[] end, boolean descending) {
    return Native.readerScan(address, start, end, descending);
  }

  @Override
  byte[] nativeGetAll(long address, byte[] encodedKeys, boolean remote) {
    return Native.readerGetAll(address, encodedKeys, remote);
  }

  @Override
  long nativeScanRemote(long address, byte[] start, byte[] end, boolean descending) {
    return Native.readerScanRemote(address, start, end, descending);
  }

  @Override
  public void close() {
    if (!handle.beginClose()) {
      return;
    }
    try {
      Native.readerClose(handle.address());
    } catch (KvException e) {
      // The SPI promises close never throws; a reader has nothing to flush, so a failed close
      // loses nothing.
      LOG.warn("closing a reader failed", e);
    } finally {
      handle.finishClose();
    }
  }
}
