import type { RecordedEvent } from './event-store.port';
import { registryOf, upcast, upcastWith } from './upcasters';

const event = (type: string, data: Record<string, unknown>, metadata: Record<string, unknown> = {}): RecordedEvent => ({
  id: 'e',
  streamId: 's',
  type,
  data,
  metadata: {
    event_id: 'e',
    organization_id: 'org',
    correlation_id: 'c',
    causation_id: 'c',
    schema_version: 1,
    occurred_at: 1,
    ...metadata,
  },
  revision: 0,
  position: 1,
});

describe('upcaster registry', () => {
  it('fills the mode of events older than modes (the mode upcast lives here) and leaves recorded ones alone', () => {
    expect(upcast(event('AccountOpened', { mode: 'live' })).metadata.mode).toBe('live');
    expect(upcast(event('TransferCreated', {})).metadata.mode).toBe('sandbox');
    const recorded = event('TransferCreated', {}, { mode: 'live' });
    expect(upcast(recorded)).toBe(recorded);
  });

  it('chains versions by type: v1 → v2 → v3, then the normalizers of each version', () => {
    const registry = registryOf([
      {
        type: 'Renamed',
        schemaVersion: 1,
        upcast: (e) => ({ ...e, data: { new_name: e.data.old_name }, metadata: { ...e.metadata, schema_version: 2 } }),
      },
      {
        type: 'Renamed',
        schemaVersion: 2,
        upcast: (e) => ({ ...e, data: { ...e.data, added: 0 }, metadata: { ...e.metadata, schema_version: 3 } }),
      },
      { type: '*', schemaVersion: 3, upcast: (e) => ({ ...e, data: { ...e.data, seen: true } }) },
    ]);
    const out = upcastWith(registry, event('Renamed', { old_name: 'x' }));
    expect(out.data).toEqual({ new_name: 'x', added: 0, seen: true });
    expect(out.metadata.schema_version).toBe(3);
    expect(upcastWith(registry, event('Other', { a: 1 })).data).toEqual({ a: 1 });
  });
});
