package dev.moraine.ducklake.changes;

/**
 * Reads an id value with the leniency of C's {@code strtoull} in base 10, which is what DuckLake
 * uses: leading white space is skipped, one optional sign is allowed (a minus negates modulo 2^64),
 * at least one digit is required, anything after the digits is ignored, and a value above 2^64-1 is
 * an error. The result is an unsigned 64-bit number held in a {@code long}.
 */
final class DecimalId {
  private static final long MAX_DIV_10 = Long.divideUnsigned(-1L, 10);
  private static final long MAX_MOD_10 = Long.remainderUnsigned(-1L, 10);

  private DecimalId() {}

  static long parse(String text, int valueStart, String value) {
    int i = 0;
    int n = value.length();
    while (i < n && isCSpace(value.charAt(i))) {
      i++;
    }
    boolean negative = false;
    if (i < n && (value.charAt(i) == '+' || value.charAt(i) == '-')) {
      negative = value.charAt(i) == '-';
      i++;
    }
    int digitsStart = i;
    long result = 0;
    while (i < n && value.charAt(i) >= '0' && value.charAt(i) <= '9') {
      long digit = value.charAt(i) - '0';
      if (Long.compareUnsigned(result, MAX_DIV_10) > 0
          || (result == MAX_DIV_10 && digit > MAX_MOD_10)) {
        throw new ChangesMadeParseException(
            text, valueStart + digitsStart, "id out of 64-bit range");
      }
      result = result * 10 + digit;
      i++;
    }
    if (i == digitsStart) {
      throw new ChangesMadeParseException(text, valueStart + digitsStart, "expected a decimal id");
    }
    return negative ? -result : result;
  }

  private static boolean isCSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
  }
}
