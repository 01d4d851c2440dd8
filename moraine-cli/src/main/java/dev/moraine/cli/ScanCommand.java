package dev.moraine.cli;

import dev.moraine.core.dump.CompactJson;
import dev.moraine.core.kv.KeyRange;
import dev.moraine.core.kv.KeyValue;
import dev.moraine.core.kv.KvIterator;
import dev.moraine.core.kv.KvReader;
import dev.moraine.core.kv.ReaderMode;
import dev.moraine.store.SlateStoreProvider;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Lists the keys of a store through a read-only reader: it never writes and never fences. */
@Command(name = "scan", description = "List the keys of a lake's store, read-only.")
final class ScanCommand implements Callable<Integer> {

  @Mixin StoreOptions store;

  @Option(names = "--prefix", description = "Only keys starting with these hex bytes.")
  String prefixHex;

  @Option(
      names = "--limit",
      description = "At most this many keys (default: ${DEFAULT-VALUE}).",
      defaultValue = "1000")
  int limit;

  @Option(names = "--json", description = "Print one line of JSON instead of text.")
  boolean json;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    HexFormat hex = HexFormat.of();
    if (limit < 0) {
      throw new CliFailure("--limit must not be negative, got " + limit);
    }
    KeyRange range =
        prefixHex == null || prefixHex.isEmpty()
            ? KeyRange.all()
            : KeyRange.prefix(parsePrefix(hex, prefixHex));
    int shown = 0;
    List<Object> keys = new ArrayList<>();
    try (KvReader reader =
            new SlateStoreProvider(store.existingStoreConfig())
                .openReader(ReaderMode.followLatest());
        KvIterator it = reader.scan(range)) {
      while (it.hasNext() && shown < limit) {
        KeyValue kv = it.next();
        if (json) {
          Map<String, Object> key = new LinkedHashMap<>();
          key.put("key", hex.formatHex(kv.key()));
          key.put("printable", printable(kv.key()));
          key.put("value_bytes", (long) kv.value().length);
          keys.add(key);
        } else {
          out.printf(
              "%s\t%s\t%d bytes%n",
              hex.formatHex(kv.key()), printable(kv.key()), kv.value().length);
        }
        shown++;
      }
    }
    if (json) {
      out.println(CompactJson.toText(Map.of("keys", keys)));
    } else {
      out.printf("%d keys%n", shown);
    }
    out.flush();
    return 0;
  }

  private static byte[] parsePrefix(HexFormat hex, String text) {
    try {
      return hex.parseHex(text);
    } catch (IllegalArgumentException notHex) {
      throw new CliFailure("--prefix must be an even number of hex digits, got '" + text + "'");
    }
  }

  /** The key with every byte outside printable ASCII shown as a dot. */
  static String printable(byte[] key) {
    StringBuilder text = new StringBuilder(key.length);
    for (byte b : key) {
      text.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
    }
    return text.toString();
  }
}
