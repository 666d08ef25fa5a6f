import type { INestApplication, Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common/enums/request-method.enum';
import { ModulesContainer } from '@nestjs/core';
import { OperatorGuard } from '../admin/operator.guard';
import { API_KEY_ONLY, PUBLIC_ROUTE, SANDBOX_ONLY } from '../http/auth/auth.decorators';
import { ACCEPTS_METADATA, DEFAULT_BODY_KINDS, type BodyKind } from '../http/media-types';
import { takesBody } from '../http/unexpected-body';

/** Who may call a route, as the guards decide it. */
export type Caller = 'public' | 'operator' | 'api_key' | 'api_key_or_token';

/** What the document builder needs to know of a route, read from the metadata the guards, pipes and interceptors act on. */
export interface RouteFacts {
  /** Lower-case HTTP method. */
  readonly method: string;
  /** OpenAPI path template (`/transfers/{id}`). */
  readonly path: string;
  readonly caller: Caller;
  readonly sandboxOnly: boolean;
  /** The handler has a @Body() parameter. */
  readonly takesBody: boolean;
  /** The bodies the route takes (@Accepts; JSON by default). */
  readonly accepts: readonly BodyKind[];
  readonly controller: string;
  readonly handler: string;
}

const METHODS: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.DELETE]: 'delete',
  [RequestMethod.PATCH]: 'patch',
};

const asList = (value: unknown): string[] =>
  value === undefined ? [''] : Array.isArray(value) ? value.map(String) : [String(value)];

/** `/accounts/:id/transactions` → `/accounts/{id}/transactions`. */
export function toTemplate(...segments: string[]): string {
  const joined = segments
    .flatMap((s) => s.split('/'))
    .filter(Boolean)
    .map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : s))
    .join('/');
  return `/${joined}`;
}

/** Every route of every controller of the app, with its facts. */
export function routeFacts(app: INestApplication): RouteFacts[] {
  const facts: RouteFacts[] = [];
  const seen = new Set<Type>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller || seen.has(controller)) continue;
      seen.add(controller);
      const prefixes = asList(Reflect.getMetadata(PATH_METADATA, controller));
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = name === 'constructor' ? undefined : Object.getOwnPropertyDescriptor(prototype, name)?.value;
        if (typeof handler !== 'function' || !Reflect.hasMetadata(PATH_METADATA, handler)) continue;
        const method = METHODS[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        if (!method) throw new Error(`${controller.name}.${name}: a method the OpenAPI document does not describe`);
        const flag = (key: string) =>
          Boolean(Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller));
        const guards: unknown[] = [
          ...(Reflect.getMetadata(GUARDS_METADATA, controller) ?? []),
          ...(Reflect.getMetadata(GUARDS_METADATA, handler) ?? []),
        ];
        const caller: Caller = guards.includes(OperatorGuard)
          ? 'operator'
          : flag(PUBLIC_ROUTE)
            ? 'public'
            : flag(API_KEY_ONLY)
              ? 'api_key'
              : 'api_key_or_token';
        const accepts =
          (Reflect.getMetadata(ACCEPTS_METADATA, handler) as BodyKind[] | undefined) ?? DEFAULT_BODY_KINDS;
        for (const prefix of prefixes) {
          for (const path of asList(Reflect.getMetadata(PATH_METADATA, handler))) {
            facts.push({
              method,
              path: toTemplate(prefix, path),
              caller,
              sandboxOnly: flag(SANDBOX_ONLY),
              takesBody: takesBody(controller, name),
              accepts,
              controller: controller.name,
              handler: name,
            });
          }
        }
      }
    }
  }
  return facts;
}
