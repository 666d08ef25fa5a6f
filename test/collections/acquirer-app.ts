import { NestFactory } from '@nestjs/core';
import type { DynamicModule, Provider, Type } from '@nestjs/common';
import {
  ACQUIRER,
  AUTHORIZATION_DEADLINE,
  AuthorizeIntentActionHandler,
  CollectionRunners,
  type Acquirer,
} from '@app/application/collections';
import { startTestApp, type TestApp } from '../support/test-app';

export interface CollectionsAppOptions {
  /** Replaces the simulated acquirer behind the ACQUIRER port. */
  readonly acquirer?: Acquirer;
  /** AUTHORIZATION_DEADLINE: how long the acquirer backstop leaves a step to its request. */
  readonly deadlineMs?: number;
}

const provides = (provider: Provider, token: unknown) =>
  typeof provider === 'object' && provider !== null && 'provide' in provider && provider.provide === token;
/** Whoever needs the deadline: the step's handler and the runner that boots the backstop. */
const needsDeadline = (providers: Provider[]) =>
  providers.some((p) => p === AuthorizeIntentActionHandler || p === CollectionRunners || provides(p, ACQUIRER));

/**
 * `startTestApp` with the ACQUIRER provider (and the deadline) swapped in every module of the app
 * that declares it, wherever the modules put it: the module tree is walked from the root module
 * `NestFactory.create` receives, and module metadata is restored once the app is built. The app
 * is otherwise exactly the one `npm start` runs.
 */
export async function startCollectionsApp(
  options: CollectionsAppOptions,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const restore: Array<() => void> = [];
  const patch = (providers: Provider[]): Provider[] => {
    const out = providers.filter(
      (p) =>
        !(options.acquirer && provides(p, ACQUIRER)) &&
        !(options.deadlineMs !== undefined && provides(p, AUTHORIZATION_DEADLINE)),
    );
    if (options.acquirer && providers.some((p) => provides(p, ACQUIRER)))
      out.push({ provide: ACQUIRER, useValue: options.acquirer });
    if (options.deadlineMs !== undefined && needsDeadline(providers))
      out.push({ provide: AUTHORIZATION_DEADLINE, useValue: options.deadlineMs });
    return out;
  };
  const seen = new Set<unknown>();
  const visit = (module: unknown): void => {
    if (!module || seen.has(module)) return;
    seen.add(module);
    if (typeof module === 'function') {
      const providers = Reflect.getMetadata('providers', module) as Provider[] | undefined;
      if (providers) {
        Reflect.defineMetadata('providers', patch(providers), module);
        restore.push(() => Reflect.defineMetadata('providers', providers, module));
      }
      for (const imported of (Reflect.getMetadata('imports', module) as unknown[] | undefined) ?? []) visit(imported);
      return;
    }
    const dynamic = module as DynamicModule & { then?: unknown };
    if (typeof dynamic.then === 'function' || !('module' in dynamic)) return;
    const providers = dynamic.providers;
    if (providers) {
      (dynamic as { providers?: Provider[] }).providers = patch([...providers]);
      restore.push(() => ((dynamic as { providers?: Provider[] }).providers = providers));
    }
    visit(dynamic.module);
    for (const imported of dynamic.imports ?? []) visit(imported);
  };
  const create = NestFactory.create.bind(NestFactory);
  const spy = jest.spyOn(NestFactory, 'create').mockImplementation(((
    root: Type<unknown> | DynamicModule,
    ...rest: unknown[]
  ) => {
    visit(root);
    return (create as (...args: unknown[]) => unknown)(root, ...rest);
  }) as never);
  let t: TestApp;
  try {
    t = await startTestApp(env);
  } finally {
    spy.mockRestore();
    restore.reverse().forEach((undo) => undo());
  }
  if (options.acquirer && t.app.get(ACQUIRER, { strict: false }) !== options.acquirer)
    throw new Error('the fake acquirer was not injected');
  return t;
}
