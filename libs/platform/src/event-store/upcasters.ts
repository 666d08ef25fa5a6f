import { modeOf } from './event-mode';
import type { RecordedEvent } from './event-store.port';

/**
 * Schema evolution: events are never rewritten; readers get them in today's shape. An upcaster is
 * keyed by event type (or `*` for every type) and the `schema_version` it reads; one that returns a
 * higher version hands the event on to the upcasters of that version, one that keeps it only fills
 * in what older writers left out (normalizes). Deciders and projections fold today's shape only.
 */
export interface Upcaster {
  readonly type: string;
  readonly schemaVersion: number;
  upcast(event: RecordedEvent): RecordedEvent;
}

export const UPCASTERS: readonly Upcaster[] = [
  // Events older than modes carry no `metadata.mode`: `modeOf` decides (a creation event's data, else sandbox).
  {
    type: '*',
    schemaVersion: 1,
    upcast: (e) => (e.metadata.mode ? e : { ...e, metadata: { ...e.metadata, mode: modeOf(e.metadata, e.data) } }),
  },
];

/** The event in today's shape, by the product's registry. */
export const upcast = (event: RecordedEvent): RecordedEvent => upcastWith(DEFAULT_REGISTRY, event);

/** Every `*` then type upcaster of the event's version, then those of the version they produced. */
export function upcastWith(registry: ReadonlyMap<string, Upcaster[]>, event: RecordedEvent): RecordedEvent {
  let current = event;
  for (let guard = 0; guard < 100; guard++) {
    const version = current.metadata.schema_version ?? 1;
    const steps = [...(registry.get(`*@${version}`) ?? []), ...(registry.get(`${current.type}@${version}`) ?? [])];
    for (const step of steps) current = step.upcast(current);
    if ((current.metadata.schema_version ?? 1) <= version) return current;
  }
  throw new Error(`upcasters of ${event.type} do not converge`);
}

export function registryOf(upcasters: readonly Upcaster[]): Map<string, Upcaster[]> {
  const map = new Map<string, Upcaster[]>();
  for (const u of upcasters)
    map.set(`${u.type}@${u.schemaVersion}`, [...(map.get(`${u.type}@${u.schemaVersion}`) ?? []), u]);
  return map;
}

const DEFAULT_REGISTRY = registryOf(UPCASTERS);
