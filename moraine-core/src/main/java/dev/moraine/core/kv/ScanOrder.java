package dev.moraine.core.kv;

/** The order in which a scan returns keys (unsigned lexicographic byte order). */
public enum ScanOrder {
  ASCENDING,
  DESCENDING
}
