import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CardDatasets } from '@app/application/cards';
import type { FxTable, MccGroups } from '@app/domain/cards';

/** Shipped with the project (docs/decisions/cards.md names their sources). */
const MCC_GROUPS_FILE = 'datasets/mcc-groups.json';

function fxTable(file: string): FxTable {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<FxTable>;
  const rates = raw.rates ?? {};
  const valid =
    typeof raw.date === 'string' &&
    typeof raw.base === 'string' &&
    rates[raw.base] === 1 &&
    Object.values(rates).every((r) => typeof r === 'number' && r > 0);
  if (!valid) throw new Error(`${file}: expected {date, base, source, rates} with rates[base] = 1 and positive rates`);
  return { date: raw.date!, base: raw.base!, source: String(raw.source ?? ''), rates };
}

function mccGroups(file: string): MccGroups {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { groups?: Record<string, unknown> };
  const groups = raw.groups ?? {};
  for (const [name, codes] of Object.entries(groups)) {
    if (!Array.isArray(codes) || !codes.every((c) => typeof c === 'string' && /^\d{4}$/.test(c)))
      throw new Error(`${file}: group ${name} must list 4-digit MCCs`);
  }
  return groups as MccGroups;
}

export function loadCardDatasets(fxFile: string): CardDatasets {
  return { fx: fxTable(fxFile), mccGroups: mccGroups(resolve(MCC_GROUPS_FILE)) };
}
