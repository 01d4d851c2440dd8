package dev.moraine.bench;

import java.awt.BasicStroke;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws commits per second against the number of concurrent committers, one line per series, both
 * axes logarithmic, as a PNG. The input is CSV rows {@code series,concurrency,commits_per_s} (a
 * header line is skipped), from any number of files, so that figures of several harnesses from one
 * run (ours, the Rust implementation's, stock DuckLake's) land on the same axes.
 *
 * <p>Usage: {@code java -Djava.awt.headless=true -cp benchmarks.jar
 * dev.moraine.bench.ConcurrencyChart <out.png> <title> <rows.csv>...}.
 */
public final class ConcurrencyChart {
  private ConcurrencyChart() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 3) {
      System.err.println("usage: ConcurrencyChart <out.png> <title> <rows.csv>...");
      System.exit(2);
    }
    Map<String, XYSeries> series = new LinkedHashMap<>();
    for (int i = 2; i < args.length; i++) {
      List<String> lines = Files.readAllLines(Path.of(args[i]));
      for (String line : lines) {
        String[] f = line.split(",");
        if (f.length < 3 || f[1].equals("concurrency")) {
          continue;
        }
        double rate = Double.parseDouble(f[2]);
        if (rate > 0) {
          series.computeIfAbsent(f[0], XYSeries::new).addOrUpdate(Double.parseDouble(f[1]), rate);
        }
      }
    }
    XYSeriesCollection data = new XYSeriesCollection();
    series.values().forEach(data::addSeries);
    JFreeChart chart =
        ChartFactory.createXYLineChart(
            args[1],
            "concurrent committers",
            "commits per second",
            data,
            PlotOrientation.VERTICAL,
            true,
            false,
            false);
    XYPlot plot = chart.getXYPlot();
    LogAxis x = new LogAxis("concurrent committers");
    x.setBase(2);
    x.setTickUnit(new NumberTickUnit(1));
    x.setSmallestValue(1);
    plot.setDomainAxis(x);
    LogAxis y = new LogAxis("commits per second");
    y.setSmallestValue(1);
    plot.setRangeAxis(y);
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
    for (int s = 0; s < data.getSeriesCount(); s++) {
      renderer.setSeriesStroke(s, new BasicStroke(2f));
    }
    plot.setRenderer(renderer);
    ChartUtils.saveChartAsPNG(Path.of(args[0]).toFile(), chart, 1000, 640);
    System.err.println("wrote " + args[0] + " with " + data.getSeriesCount() + " series");
  }
}
