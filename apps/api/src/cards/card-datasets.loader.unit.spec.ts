import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCardDatasets } from './card-datasets.loader';

describe('card datasets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fx-'));
  const write = (name: string, body: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(body));
    return file;
  };

  it('loads the shipped FX table and MCC groups', () => {
    const { fx, mccGroups } = loadCardDatasets('datasets/fx-rates.json');
    expect(fx).toMatchObject({ base: 'USD', date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(fx.source).not.toBe('');
    expect(fx.rates.USD).toBe(1);
    expect(mccGroups.gambling).toContain('7995');
    expect(mccGroups.airlines).toContain('3000');
    expect(mccGroups.atm_cash).toContain('6011');
    for (const codes of Object.values(mccGroups)) for (const code of codes) expect(code).toMatch(/^\d{4}$/);
  });

  it('refuses a malformed FX table (the start stops rather than the first authorization failing)', () => {
    expect(() =>
      loadCardDatasets(write('no-base.json', { date: '2031-01-01', base: 'USD', rates: { USD: 2 } })),
    ).toThrow(/rates\[base\] = 1/);
    expect(() =>
      loadCardDatasets(write('negative.json', { date: '2031-01-01', base: 'USD', rates: { USD: 1, EUR: -1 } })),
    ).toThrow();
    expect(() => loadCardDatasets(join(dir, 'missing.json'))).toThrow();
  });
});
