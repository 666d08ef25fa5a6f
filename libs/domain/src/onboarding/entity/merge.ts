type Plain = Record<string, unknown>;

const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Deep-merges a partial update into a section. Only leaves that really change are reported (as
 * dotted paths under `prefix`), so sending the current values again is a no-op, not an update.
 */
export function mergeSection<T extends object>(
  current: T | null | undefined,
  patch: object | undefined,
  prefix: string,
): { value: T; changed: string[] } {
  const value: Plain = { ...((current ?? {}) as Plain) };
  const changed: string[] = [];
  for (const [key, next] of Object.entries(patch ?? {})) {
    if (next === undefined) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlain(next) && (isPlain(value[key]) || value[key] === undefined) && !isStringMap(key)) {
      const inner = mergeSection(value[key] as Plain | undefined, next, path);
      if (inner.changed.length) value[key] = inner.value;
      changed.push(...inner.changed);
    } else if (!same(value[key], next)) {
      value[key] = next;
      changed.push(path);
    }
  }
  return { value: value as T, changed };
}

/** `meta` maps are replaced key by key like any section, except that "" removes a key (as Stripe metadata does). */
export function mergeMeta(
  current: Readonly<Record<string, string>>,
  patch: Readonly<Record<string, string>> | undefined,
): { value: Record<string, string>; changed: string[] } {
  const value = { ...current };
  const changed: string[] = [];
  for (const [key, next] of Object.entries(patch ?? {})) {
    if (next === '' ? !(key in value) : value[key] === next) continue;
    if (next === '') delete value[key];
    else value[key] = next;
    changed.push(key);
  }
  return { value, changed };
}

/** A nested `meta` is a string map set as a whole: its keys are the client's, not a schema. */
function isStringMap(key: string): boolean {
  return key === 'meta';
}
