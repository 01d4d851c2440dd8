package dev.moraine.core.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.moraine.core.kv.KvOutcomeUnknownException.Reason;
import org.junit.jupiter.api.Test;

class KvOutcomeUnknownExceptionTest {

  @Test
  void carriesItsReasonAndCauseAndSaysTheOutcomeIsUnknown() {
    KvFencedException fence = new KvFencedException("newer writer");
    KvOutcomeUnknownException unknown =
        new KvOutcomeUnknownException(Reason.FENCED, "flush found a fence", fence);
    assertEquals(Reason.FENCED, unknown.reason());
    assertSame(fence, unknown.getCause());
    assertTrue(unknown.getMessage().contains("outcome unknown"), unknown.getMessage());
    assertTrue(unknown.getMessage().contains("FENCED"), unknown.getMessage());
    assertInstanceOf(KvException.class, unknown);
  }

  @Test
  void aReasonIsRequired() {
    assertThrows(IllegalArgumentException.class, () -> new KvOutcomeUnknownException(null, "x"));
  }

  @Test
  void receiptsOfDifferentHandlesDifferEvenWithTheSameSequenceNumber() {
    assertNotEquals(new WriteReceipt(1, 7), new WriteReceipt(2, 7));
    assertEquals(new WriteReceipt(1, 7), new WriteReceipt(1, 7));
  }
}
