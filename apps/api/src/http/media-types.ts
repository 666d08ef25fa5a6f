import type { IncomingHttpHeaders } from 'node:http';

/** Reflect-metadata key under which a route handler names the request bodies it takes. */
export const ACCEPTS_METADATA = 'http:accepts';

/**
 * The request bodies a route takes (decisions §2): `json` is `application/json` and
 * `application/*+json`; `form` is `application/x-www-form-urlencoded` (an HTML form's POST);
 * `multipart` is `multipart/form-data` (uploads, parsed by the route's own interceptor).
 */
export type BodyKind = 'json' | 'form' | 'multipart';

/** What a route takes when it does not say: JSON. */
export const DEFAULT_BODY_KINDS: readonly BodyKind[] = ['json'];

const NAMES: Record<BodyKind, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
};

/**
 * The bodies a route takes instead of JSON, on a handler or on a controller (then on each of its
 * handlers that does not say otherwise). The metadata goes on the handler function itself: Nest
 * copies a handler's metadata onto the callback it registers with Express, where the route table
 * (route-table.ts) reads it.
 */
export function Accepts(...kinds: [BodyKind, ...BodyKind[]]): ClassDecorator & MethodDecorator {
  const decorator = (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      Reflect.defineMetadata(ACCEPTS_METADATA, kinds, descriptor.value as object);
      return descriptor;
    }
    const prototype = (target as { prototype: object }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = name === 'constructor' ? undefined : Object.getOwnPropertyDescriptor(prototype, name)?.value;
      if (typeof handler === 'function' && !Reflect.hasOwnMetadata(ACCEPTS_METADATA, handler))
        Reflect.defineMetadata(ACCEPTS_METADATA, kinds, handler);
    }
    return undefined;
  };
  return decorator as ClassDecorator & MethodDecorator;
}

/** `type/subtype` of a Content-Type header, lower-cased and without parameters; null if absent or not a media type. */
export function mediaTypeOf(header: string | undefined): string | null {
  const type = header?.split(';', 1)[0].trim().toLowerCase();
  return type && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) ? type : null;
}

/** Whether a body of `mediaType` is one of `kind`. */
export function isKind(kind: BodyKind, mediaType: string): boolean {
  if (kind === 'json') return mediaType === 'application/json' || /^application\/[^/]+\+json$/.test(mediaType);
  return mediaType === NAMES[kind];
}

/**
 * Whether the request carries a body: a Transfer-Encoding, or a Content-Length above 0. A request
 * without one is valid wherever the route allows no body, whatever its Content-Type says.
 */
export function hasBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && Number(length) > 0;
}

/** The 415 message: what was sent, and the Content-Type to send instead. */
export function unsupportedMessage(mediaType: string | null, kinds: readonly BodyKind[]): string {
  const wanted = kinds.map((kind) => NAMES[kind]).join(' or ');
  const send = `send Content-Type: ${wanted}`;
  const takes = kinds.includes('json')
    ? `this route takes JSON (${NAMES.json} or application/*+json)`
    : `this route takes ${wanted}`;
  if (mediaType === null) return `The request body has no valid Content-Type; ${takes}: ${send}`;
  if (mediaType === NAMES.form && kinds.includes('json')) {
    return `The request body is ${NAMES.form} (what curl -d sends without a Content-Type header), but ${takes}: ${send}`;
  }
  return `The request body is ${mediaType}, but ${takes}: ${send}`;
}
