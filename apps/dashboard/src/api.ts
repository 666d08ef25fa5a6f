import { session } from './session';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Raised when the key is missing or refused: the page goes back to the sign-in form. */
export class SignedOut extends Error {}

export type Query = Record<string, string | number | null | undefined>;

/**
 * GET on the API of this origin with the session's key. Paths are the API's own (`/accounts`), so
 * the key can never be sent elsewhere; no cookie is sent or kept.
 */
export async function get<T>(path: string, query: Query = {}, key: string | null = session.key()): Promise<T> {
  if (!key) throw new SignedOut();
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`not an API path: ${path}`);
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(query))
    if (value !== null && value !== undefined && value !== '') url.searchParams.set(name, String(value));
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
    credentials: 'omit',
    cache: 'no-store',
    redirect: 'error',
  });
  const body = (await res.json().catch(() => null)) as { code?: string; message?: string } | null;
  if (res.status === 401) throw new SignedOut(body?.message ?? 'The key was refused');
  if (!res.ok)
    throw new ApiError(res.status, body?.code ?? 'error', body?.message ?? `${res.status} ${res.statusText}`);
  return body as T;
}

/**
 * POST a JSON body on the API of this origin with the session's key: the dashboard's one write is
 * resending a webhook delivery (decisions §15), which changes no resource and no balance.
 */
export async function post<T>(
  path: string,
  body: Record<string, unknown>,
  key: string | null = session.key(),
): Promise<T> {
  if (!key) throw new SignedOut();
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`not an API path: ${path}`);
  const res = await fetch(new URL(path, window.location.origin), {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
    redirect: 'error',
  });
  const answer = (await res.json().catch(() => null)) as { code?: string; message?: string } | null;
  if (res.status === 401) throw new SignedOut(answer?.message ?? 'The key was refused');
  if (!res.ok)
    throw new ApiError(res.status, answer?.code ?? 'error', answer?.message ?? `${res.status} ${res.statusText}`);
  return answer as T;
}

export const path = (...segments: string[]) => `/${segments.map(encodeURIComponent).join('/')}`;

/** Style A pages (`{data, meta: {pagination: {has_more, next_cursor}}}`), up to `max` items. */
export async function allStyleA<T>(p: string, query: Query = {}, max = 500): Promise<{ items: T[]; more: boolean }> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page: StyleA<T> = await get<StyleA<T>>(p, { ...query, limit: 100, cursor });
    items.push(...page.data);
    cursor = page.meta.pagination.next_cursor;
    if (!page.meta.pagination.has_more || !cursor) return { items, more: false };
    if (items.length >= max) return { items, more: true };
  }
}

export interface StyleA<T> {
  readonly data: T[];
  readonly meta: { readonly pagination: { readonly has_more: boolean; readonly next_cursor: string | null } };
}

export interface StyleB<T> {
  readonly data: T[];
  readonly pagination: { readonly has_next: boolean; readonly next_cursor: string | null };
}
