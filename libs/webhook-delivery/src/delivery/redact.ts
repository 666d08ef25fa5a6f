/** Names whose values are credentials: signatures, authorization, cookies, tokens, keys, secrets. */
const SENSITIVE = /signature|authorization|cookie|token|secret|password|api[-_]?key|^key$|^sig$/i;

export const REDACTED = '***';

/** A copy safe to keep in a log: the names stay, credential values read `***`. */
export function redact(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, SENSITIVE.test(name) ? REDACTED : value]),
  );
}

export function queryParams(url: URL): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of url.searchParams) params[name] = name in params ? `${params[name]},${value}` : value;
  return redact(params);
}
