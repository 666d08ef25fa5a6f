import type { Response } from 'supertest';
import type { OpenApiDocument, Operation } from '../../apps/api/src/openapi/openapi-document';
import type { RouteRequest } from '../isolation/routes';
import { PROTOTYPE_KEYS, setAt, type BadRequest } from './mutations';

/** One bad request of a family, and what its answer must be beyond a refusal that writes nothing: null when right. */
export interface FamilyCase {
  readonly family: string;
  readonly request: BadRequest;
  readonly wrong: (res: Response) => string | null;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { $ref?: string; type?: string | string[]; required?: string[]; properties?: Record<string, Schema> };

/** A query parameter no route documents: what an auditor's typo of `as_of` sends. */
export const UNKNOWN_PARAMETER = 'asof';

/**
 * Decisions §2, "nothing a route does not understand passes silently", as requests built for one
 * route from its valid request and its OpenAPI operation, so a route added later is covered too:
 * an unknown query parameter, a key twice in one object (top level and nested), blank and missing
 * required text (the operation's body schema says which fields are required), multipart fields
 * with prototype keys, and the Authorization header's forms (the scheme in any case, two headers).
 */
export function familyCases(
  method: string,
  base: RouteRequest,
  op: Operation | undefined,
  doc: OpenApiDocument,
  credential: string,
): FamilyCase[] {
  const cases: FamilyCase[] = [];
  const at = (family: string, request: Omit<BadRequest, 'method'>, wrong: FamilyCase['wrong']) =>
    cases.push({ family, request: { method, ...request }, wrong });
  const json = base.body ? JSON.stringify(base.body) : undefined;
  const same = { json, multipart: base.multipart };
  const withQuery = (query: string) => `${base.path}${base.path.includes('?') ? '&' : '?'}${query}`;
  const operator = (op?.security ?? []).some((s) => 'operator' in s);
  const unknownQuery = withQuery(`${UNKNOWN_PARAMETER}=position:1`);

  // The operator API answers 404 to everyone while PAYMENTS_ADMIN_TOKEN is unset, before reading the query.
  if (!operator)
    at(
      'unknown query parameter',
      { ...same, path: unknownQuery, description: `?${UNKNOWN_PARAMETER}=` },
      names(400, UNKNOWN_PARAMETER),
    );

  const takesJson = !op?.requestBody || 'application/json' in op.requestBody.content;
  const duplicates = base.body ? duplicateTexts(base.body as Json) : [['a', '{"a":1,"a":2}'] as const];
  for (const [key, text] of duplicates) {
    at('duplicate key', { path: base.path, json: text, description: `${key} twice` }, (res) =>
      !takesJson
        ? res.status === 415
          ? null
          : `${res.status}, not 415`
        : res.status === 400 &&
            res.body.code === 'invalid_json' &&
            String(res.body.message).includes(`"${key.split('.').pop()}"`)
          ? null
          : `${res.status} ${res.body.code}: ${res.body.message}`,
    );
  }

  // A guard that reads the field itself (the 3-D Secure page's form token) refuses first, with its documented 403.
  const guarded =
    (wrong: FamilyCase['wrong']): FamilyCase['wrong'] =>
    (res) =>
      res.status === 403 && op?.responses['403'] ? null : wrong(res);
  if (base.body && !operator) {
    for (const field of requiredText(bodySchema(op, doc), doc, base.body as Json)) {
      const path = field.split('.');
      at(
        'blank required text',
        { path: base.path, json: JSON.stringify(setAt(base.body as Json, path, '  ')), description: `${field} blank` },
        guarded(names([400, 422], field)),
      );
      const missing = (res: Response) =>
        [400, 422].includes(res.status) &&
        res.body.errors?.[0]?.field === field &&
        /required/.test(res.body.errors[0].message)
          ? null
          : `${res.status} ${JSON.stringify(res.body.errors)}`;
      at(
        'missing required field',
        {
          path: base.path,
          json: JSON.stringify(setAt(base.body as Json, path, undefined)),
          description: `${field} missing`,
        },
        guarded(missing),
      );
    }
  }

  if (base.multipart) {
    const fields = [
      ...PROTOTYPE_KEYS.map((key) => `${key}[polluted]`),
      'link_to_identity[constructor][prototype][x]',
      'link_to_identity[prototype]',
      'constructor',
      'unknown_field',
    ];
    for (const name of fields) {
      const multipart = { ...base.multipart, fields: { ...base.multipart.fields, [name]: '1' } };
      at('multipart field', { path: base.path, multipart, description: `multipart ${name}` }, (res) =>
        res.status === 400 && /is not an accepted field$/.test(res.body.errors?.[0]?.message)
          ? null
          : `${res.status} ${JSON.stringify(res.body.errors)}`,
      );
    }
  }

  // The credential is read whatever the scheme's case: the request gets as far as the query check.
  if (!operator) {
    for (const scheme of ['bearer', 'BEARER']) {
      at(
        'Authorization scheme case',
        {
          ...same,
          path: unknownQuery,
          authorization: [`${scheme} ${credential}`],
          description: `Authorization: ${scheme}`,
        },
        names(400, UNKNOWN_PARAMETER),
      );
    }
  }
  const twice = [`Bearer ${credential}`, `Bearer ${credential}`];
  at(
    'two Authorization headers',
    { ...same, path: base.path, authorization: twice, description: 'two Authorization headers' },
    (res) => (res.status === 400 && res.body.code === 'invalid_request' ? null : `${res.status} ${res.body.code}`),
  );
  return cases;
}

/** The answer is `status` (one of) and its first error names `field`. */
function names(status: number | number[], field: string): FamilyCase['wrong'] {
  const statuses = Array.isArray(status) ? status : [status];
  return (res) =>
    statuses.includes(res.status) && res.body.errors?.[0]?.field === field
      ? null
      : `${res.status} ${JSON.stringify(res.body.errors ?? res.text).slice(0, 200)}`;
}

/** The body's JSON text with its first key repeated at the top level, and in its first object block. */
function duplicateTexts(body: Json): Array<readonly [string, string]> {
  const texts: Array<readonly [string, string]> = [];
  const top = Object.keys(body as object)[0];
  if (top !== undefined) texts.push([top, repeatFirstKey(body)]);
  const block = Object.entries(body as Record<string, Json>).find(
    ([, value]) => value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length,
  );
  if (block) {
    const [name, value] = block;
    const inner = repeatFirstKey(value);
    const rest = Object.entries(body as Record<string, Json>).map(
      ([k, v]) => `${JSON.stringify(k)}:${k === name ? inner : JSON.stringify(v)}`,
    );
    texts.push([`${name}.${Object.keys(value as object)[0]}`, `{${rest.join(',')}}`]);
  }
  return texts;
}

function repeatFirstKey(object: Json): string {
  const entries = Object.entries(object as Record<string, Json>).map(
    ([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`,
  );
  return `{${[...entries, entries[0]].join(',')}}`;
}

function bodySchema(op: Operation | undefined, doc: OpenApiDocument): Schema | undefined {
  return resolve(op?.requestBody?.content['application/json']?.schema as Schema | undefined, doc);
}

function resolve(schema: Schema | undefined, doc: OpenApiDocument): Schema | undefined {
  return schema?.$ref ? (doc.components.schemas[schema.$ref.split('/').pop()!] as Schema) : schema;
}

/** `first_name`, `profile.last_name`: the required text fields of a schema, one block deep, that the valid body sends. */
function requiredText(schema: Schema | undefined, doc: OpenApiDocument, body: Json, prefix = ''): string[] {
  return (schema?.required ?? []).flatMap((name) => {
    const property = resolve(schema?.properties?.[name], doc);
    const value = (body as Record<string, Json>)?.[name];
    if (value === undefined || !property) return [];
    if (typeof value === 'string' && [property.type].flat().includes('string')) return [`${prefix}${name}`];
    return !prefix && value && typeof value === 'object' && !Array.isArray(value)
      ? requiredText(property, doc, value, `${name}.`)
      : [];
  });
}
