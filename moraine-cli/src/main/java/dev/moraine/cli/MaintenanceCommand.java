package dev.moraine.cli;

import dev.moraine.core.catalog.model.MaintenancePass;
import dev.moraine.core.dump.CompactJson;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code moraine maintenance}: what the catalog records of its maintenance. */
@Command(
    name = "maintenance",
    description = "Look at a lake's maintenance.",
    subcommands = {MaintenanceCommand.Status.class})
final class MaintenanceCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "name a subcommand: status");
  }

  /** The recorded passes, newest first; read-only. */
  @Command(
      name = "status",
      description =
          "Print the maintenance passes the lake records (the last 16, newest first): when each"
              + " started, what started it, and what each step did; read-only.")
  static final class Status implements Callable<Integer> {
    @Mixin LakeOptions where;

    @Option(names = "--json", description = "Print one line of JSON instead of text.")
    boolean json;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      List<MaintenancePass> passes;
      try (ReadOnlyLake lake = where.open()) {
        passes = lake.catalog().maintenanceStatus();
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        List<Object> rows = new ArrayList<>();
        for (MaintenancePass p : passes) {
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("started_at", p.startedAt().toString());
          row.put("trigger", p.trigger());
          List<Object> steps = new ArrayList<>();
          for (MaintenancePass.Step s : p.steps()) {
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("step", s.step());
            step.put("status", s.status());
            step.put("detail", s.detail());
            steps.add(step);
          }
          row.put("steps", steps);
          rows.add(row);
        }
        out.println(CompactJson.toText(Map.of("passes", rows)));
      } else if (passes.isEmpty()) {
        out.println("no maintenance passes recorded");
      } else {
        out.println("maintenance passes recorded: " + passes.size() + " (newest first)");
        for (MaintenancePass p : passes) {
          out.println(p.startedAt() + "  " + p.trigger());
          for (MaintenancePass.Step s : p.steps()) {
            out.println(
                String.format(Locale.ROOT, "  %-8s %-8s %s", s.step(), s.status(), s.detail()));
          }
        }
      }
      out.flush();
      return 0;
    }
  }
}
