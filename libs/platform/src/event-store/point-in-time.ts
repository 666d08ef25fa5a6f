import { AsyncLocalStorage } from 'node:async_hooks';
import type { RecordedEvent } from './event-store.port';

/** `as_of` (decisions §10): the last event at or before a log position, or at or before a time (ms). */
export type PointInTime = { readonly position: number } | { readonly time: number };

const current = new AsyncLocalStorage<PointInTime>();

/**
 * Runs a read as of a point: every stream read inside it ends at that point, so the ordinary
 * by-id queries fold the resource as it was and the ordinary presenters show it. Reads only:
 * nothing that appends runs inside (a GET by id), and folds inside bypass the fold cache.
 */
export function atPointInTime<T>(point: PointInTime, read: () => T): T {
  return current.run(point, read);
}

export function pointInTime(): PointInTime | undefined {
  return current.getStore();
}

/** Whether the event is at or before the point. */
export const withinPoint = (e: RecordedEvent, point: PointInTime): boolean =>
  'position' in point ? e.position <= point.position : e.metadata.occurred_at <= point.time;

/** A stream's events up to the point (a stream is in log and time order, so it is a prefix). */
export function upToPoint(events: RecordedEvent[], point: PointInTime | undefined = pointInTime()): RecordedEvent[] {
  if (!point) return events;
  const end = events.findIndex((e) => !withinPoint(e, point));
  return end === -1 ? events : events.slice(0, end);
}
