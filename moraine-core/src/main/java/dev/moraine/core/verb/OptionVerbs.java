package dev.moraine.core.verb;

import dev.moraine.core.catalog.InvalidArgumentException;
import dev.moraine.core.catalog.Transaction;
import dev.moraine.core.catalog.model.OptionScope;
import dev.moraine.core.keyspace.key.EntityKey;
import dev.moraine.core.keyspace.proto.OptionScopeValue;
import dev.moraine.core.view.Names;
import java.util.Optional;

/**
 * Setting and unsetting options, outside the snapshot protocol; {@link Transaction} documents each
 * verb's contract.
 */
public final class OptionVerbs {
  private final VerbState s;

  public OptionVerbs(VerbState state) {
    this.s = state;
  }

  public void set(OptionScope scope, String key, String value) {
    EntityKey.OptionScope entity = scopeKey(scope, key);
    if (value == null) {
      throw new InvalidArgumentException("option value must not be null (unset it instead)");
    }
    OptionScopeValue current =
        s.staged.get(entity, OptionScopeValue.class).orElse(OptionScopeValue.getDefaultInstance());
    s.staged.put(entity, current.toBuilder().putOptions(key, value).build());
  }

  public void unset(OptionScope scope, String key) {
    EntityKey.OptionScope entity = scopeKey(scope, key);
    Optional<OptionScopeValue> current = s.staged.get(entity, OptionScopeValue.class);
    if (current.isEmpty() || !current.get().containsOptions(key)) {
      return;
    }
    OptionScopeValue left = current.get().toBuilder().removeOptions(key).build();
    if (left.getOptionsCount() == 0) {
      s.staged.delete(entity);
    } else {
      s.staged.put(entity, left);
    }
  }

  private EntityKey.OptionScope scopeKey(OptionScope scope, String key) {
    if (scope == null) {
      throw new InvalidArgumentException("option scope must not be null");
    }
    Names.nonEmpty("option", key);
    if (scope instanceof OptionScope.Schema schema) {
      s.requireSchema(schema.schemaId());
      return new EntityKey.OptionScope(EntityKey.OptionScope.SCHEMA, schema.schemaId());
    } else if (scope instanceof OptionScope.Table t) {
      s.requireTable(t.tableId());
      return new EntityKey.OptionScope(EntityKey.OptionScope.TABLE, t.tableId());
    }
    if (key.equals("encrypted")) {
      throw new InvalidArgumentException(
          "the global option 'encrypted' is fixed when the lake is created");
    }
    return EntityKey.OptionScope.global();
  }
}
