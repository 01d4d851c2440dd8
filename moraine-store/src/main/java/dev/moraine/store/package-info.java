/**
 * The SlateDB implementation of the {@code dev.moraine.core.kv} SPI, through the JNI crate in
 * {@code moraine-store/native}.
 *
 * <p>Entry points: {@link dev.moraine.store.SlateStoreProvider} configured by a {@link
 * dev.moraine.store.StoreConfig} (an {@link dev.moraine.store.ObjectStoreSpec}, a path, {@link
 * dev.moraine.store.StoreSettings}, an optional separate WAL store). Tests inject object-store
 * faults with {@link dev.moraine.store.FaultInjector}. See {@code docs/rfcs/0001-store-binding.md}
 * for handle ownership, threading and error mapping.
 */
package dev.moraine.store;
