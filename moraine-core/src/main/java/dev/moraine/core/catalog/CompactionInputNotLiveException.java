package dev.moraine.core.catalog;

import java.util.List;

/**
 * A compaction was refused because some of the data files it names as inputs are not live at the
 * commit's premise: a concurrent commit merged, rewrote or expired them after the host chose them
 * (or they never were files of the table). A merge's output holds exactly its inputs' rows, so
 * merging anything other than the named inputs would lose or duplicate rows; the verb stages
 * nothing, and if the closure lets this escape the commit writes nothing.
 *
 * <p>Do not retry the same call: choose the inputs again from the new head, write the merged file
 * from those, and commit that.
 */
public final class CompactionInputNotLiveException extends MoraineException {
  private static final long serialVersionUID = 1L;

  private final long tableId;
  private final List<Long> fileIds;

  /** A refusal of a compaction of table {@code tableId} whose inputs {@code fileIds} are gone. */
  public CompactionInputNotLiveException(long tableId, List<Long> fileIds) {
    super(ErrorCode.COMPACTION_INPUT_NOT_LIVE, message(tableId, fileIds));
    this.tableId = tableId;
    this.fileIds = List.copyOf(fileIds);
  }

  private static String message(long tableId, List<Long> fileIds) {
    StringBuilder ids = new StringBuilder();
    for (long id : fileIds) {
      ids.append(ids.length() == 0 ? "" : ", ").append(Long.toUnsignedString(id));
    }
    return "compaction refused: data file"
        + (fileIds.size() == 1 ? " " : "s ")
        + ids
        + " of table "
        + Long.toUnsignedString(tableId)
        + (fileIds.size() == 1 ? " is" : " are")
        + " not live at the commit's premise; choose the inputs again from the new head";
  }

  /** The table whose compaction was refused. */
  public long tableId() {
    return tableId;
  }

  /** The input data files that are not live, in the order given. */
  public List<Long> fileIds() {
    return fileIds;
  }
}
