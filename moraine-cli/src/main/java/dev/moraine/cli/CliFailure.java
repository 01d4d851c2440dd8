package dev.moraine.cli;

/**
 * A failure the command line explains in one line: a missing directory, a directory that holds no
 * store, an argument that makes no sense. It is raised before anything is opened or written.
 */
final class CliFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  CliFailure(String message) {
    super(message, null, false, false);
  }
}
