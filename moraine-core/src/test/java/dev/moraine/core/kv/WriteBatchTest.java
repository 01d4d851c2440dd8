package dev.moraine.core.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WriteBatchTest {

  @Test
  void put_refusesEmptyKeyAndLeavesBatchUnchanged() {
    WriteBatch batch = new WriteBatch();
    assertThrows(KvInvalidArgumentException.class, () -> batch.put(new byte[0], new byte[1]));
    assertTrue(batch.isEmpty());
  }

  @Test
  void put_refusesKeyLongerThanLimit() {
    WriteBatch batch = new WriteBatch();
    byte[] longest = new byte[KvLimits.MAX_KEY_BYTES];
    batch.put(longest, new byte[0]);
    assertThrows(
        KvInvalidArgumentException.class,
        () -> batch.put(new byte[KvLimits.MAX_KEY_BYTES + 1], new byte[0]));
    assertEquals(1, batch.size());
  }

  @Test
  void put_refusesNulls() {
    WriteBatch batch = new WriteBatch();
    assertThrows(KvInvalidArgumentException.class, () -> batch.put(null, new byte[0]));
    assertThrows(KvInvalidArgumentException.class, () -> batch.put(new byte[1], null));
    assertThrows(KvInvalidArgumentException.class, () -> batch.delete(null));
  }

  @Test
  void ops_keepOrderAndCopyArrays() {
    byte[] key = {1};
    byte[] value = {2};
    WriteBatch batch = new WriteBatch().put(key, value).delete(new byte[] {3});
    key[0] = 9;
    value[0] = 9;
    assertArrayEquals(new byte[] {1}, batch.ops().get(0).key());
    assertArrayEquals(new byte[] {2}, batch.ops().get(0).value());
    assertTrue(batch.ops().get(1).isDelete());
    assertEquals(3, batch.payloadBytes());
  }
}
