import { tmpdir } from 'node:os';
import { loadConfig } from '../config/platform-config';
import { FoldCache, estimateBytes } from './fold-cache';

const folded = (revision: number, payload: string) => ({ state: { payload }, revision });

describe('FoldCache: bounded by bytes, least recently used out first', () => {
  const size = (payload: string) => estimateBytes({ payload });

  it('evicts the least recently used entries once their estimated bytes pass the budget', () => {
    const kb = 'x'.repeat(1000);
    const cache = new FoldCache(size(kb) * 3);
    cache.remember('a', folded(0, kb));
    cache.remember('b', folded(0, kb));
    cache.remember('c', folded(0, kb));
    expect(cache.size).toBe(3);
    cache.get('a'); // a is now the most recently used: b goes first
    cache.remember('d', folded(0, kb));
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')].map(Boolean)).toEqual([
      true,
      false,
      true,
      true,
    ]);
    expect(cache.bytes).toBeLessThanOrEqual(size(kb) * 3);
  });

  it('counts bytes, not entries: one large state pushes out many small ones', () => {
    const budget = size('y'.repeat(5000)) + 5 * size('s');
    const cache = new FoldCache(budget);
    for (let i = 0; i < 10; i++) cache.remember(`small-${i}`, folded(0, 's'));
    expect(cache.size).toBe(10);
    cache.remember('large', folded(0, 'y'.repeat(5000)));
    expect(cache.get('large')).toBeDefined();
    // The five oldest small ones made room; the five newest stay.
    expect([...Array(10).keys()].map((i) => Boolean(cache.get(`small-${i}`)))).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(cache.bytes).toBeLessThanOrEqual(budget);
  });

  it('never keeps an entry larger than the whole budget, and keeps only the newest revision', () => {
    const cache = new FoldCache(100);
    cache.remember('huge', folded(0, 'z'.repeat(500)));
    expect(cache.get('huge')).toBeUndefined();
    cache.remember('k', folded(3, 'new'));
    cache.remember('k', folded(2, 'old'));
    expect(cache.get('k')).toEqual(folded(3, 'new'));
  });

  it('re-measures a growing entry only when its stream has doubled (O(1) amortized)', () => {
    const measure = jest.fn(estimateBytes);
    const cache = new FoldCache(1e9, measure);
    for (let revision = 0; revision < 1024; revision++) cache.remember('s', folded(revision, 'x'.repeat(revision)));
    expect(measure.mock.calls.length).toBeLessThanOrEqual(11);
    expect(cache.bytes).toBeGreaterThanOrEqual(size('x'.repeat(511)));
  });

  it('measures a state holding a linked list far deeper than JSON.stringify can walk', () => {
    let history: unknown = null;
    for (let i = 0; i < 200_000; i++) history = { id: `h${i}`, value: true, previous: history };
    expect(() => JSON.stringify(history)).toThrow(RangeError);
    expect(estimateBytes({ history })).toBeGreaterThan(200_000 * 20);
  });

  it('reads FOLD_CACHE_MAX_BYTES, with a default and a refusal of nonsense', () => {
    const config = (env: Record<string, string>) =>
      loadConfig({ DATA_DIR: tmpdir(), PAYMENTS_MASTER_KEY: Buffer.alloc(32).toString('base64'), ...env });
    expect(config({}).foldCacheMaxBytes).toBe(16 * 1024 * 1024);
    expect(config({ FOLD_CACHE_MAX_BYTES: '1048576' }).foldCacheMaxBytes).toBe(1048576);
    expect(() => config({ FOLD_CACHE_MAX_BYTES: '64MB' })).toThrow('FOLD_CACHE_MAX_BYTES');
    expect(() => config({ SNAPSHOT_EVERY: 'often' })).toThrow('SNAPSHOT_EVERY');
  });
});
