import { join } from 'node:path';
import * as ts from 'typescript';
import { tsFiles } from './source-scans';
import { LEGACY_DELIVERY_EVENT_TYPES } from '@app/webhook-delivery/legacy/legacy-delivery-events';

const REPO = join(__dirname, '..', '..');

/**
 * The `type` names of every event union a module of the domain exports (each exported type alias
 * named `…Event`, in any file, barrel or not), read with the TypeScript checker: the domain's
 * events as the compiler knows them.
 */
function exportedEventUnions(): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(REPO, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!config) throw new Error('tsconfig.json does not parse');
  const files = tsFiles(
    join(REPO, 'libs', 'domain', 'src'),
    (p) => !p.endsWith('.spec.ts') && !p.includes('/testing/'),
  );
  const program = ts.createProgram({ rootNames: files, options: { ...config.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const unions = new Map<string, string[]>();
  for (const file of files) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!);
    for (const exported of module ? checker.getExportsOfModule(module) : []) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (!(symbol.flags & ts.SymbolFlags.TypeAlias) || !/Event$/.test(symbol.name)) continue;
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      const names = (type.isUnion() ? type.types : [type]).flatMap((member) => {
        const tag = member.getProperty('type');
        const tagType = tag && checker.getTypeOfSymbol(tag);
        return tagType?.isStringLiteral() ? [tagType.value] : [];
      });
      if (names.length) unions.set(symbol.name, names);
    }
  }
  return unions;
}

/**
 * Issue 20: delivery bookkeeping is operational state of the webhook app, kept in its delivery
 * store; the domain's events (what the audited log holds) include none of it. Older logs still
 * carry such events, read only by the webhook app's one-time import (libs/webhook-delivery/src/legacy).
 */
describe('the domain has no delivery bookkeeping among its event types', () => {
  const unions = exportedEventUnions();
  const all = [...unions.values()].flat();

  it('reads the event unions the domain exports', () => {
    expect(unions.size).toBeGreaterThan(10);
    expect(all).toEqual(
      expect.arrayContaining([
        'WebhookCreated',
        'WebhookUpdated',
        'WebhookDeleted',
        'TransferCreated',
        'AccountOpened',
        'CardIssued',
        'PaymentIntentCreated',
      ]),
    );
  });

  it('names no delivery in any exported event union', () => {
    expect(all.filter((type) => /Delivery/.test(type) || LEGACY_DELIVERY_EVENT_TYPES.has(type))).toEqual([]);
  });

  it('names no delivery in any exported list of event types', () => {
    const modules = tsFiles(
      join(REPO, 'libs', 'domain', 'src'),
      (p) => !p.endsWith('.spec.ts') && !p.includes('/testing/'),
    ).map((file) => require(file) as Record<string, unknown>);
    const lists = modules
      .flatMap((exports) => Object.entries(exports))
      .filter(([name, value]) => /_EVENT_TYPES$/.test(name) && Array.isArray(value)) as [string, string[]][];
    expect(lists.length).toBeGreaterThan(5);
    expect(
      lists.flatMap(([name, types]) => types.filter((t) => /Delivery/.test(t)).map((t) => `${name}: ${t}`)),
    ).toEqual([]);
  });
});
