import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './platform-config';

describe('COLLECTION_FEES (decisions §7)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'config-'));

  it('defaults to card-acq 290 and walletpay-acq 250 basis points', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).collectionFeesBps).toEqual({ 'card-acq': 290, 'walletpay-acq': 250 });
  });

  it('reads the table, and names the variable when it is malformed', () => {
    expect(loadConfig({ DATA_DIR: dataDir, COLLECTION_FEES: 'card-acq:100' }).collectionFeesBps).toEqual({
      'card-acq': 100,
    });
    expect(() => loadConfig({ DATA_DIR: dataDir, COLLECTION_FEES: 'card-acq=100' })).toThrow('COLLECTION_FEES');
    expect(() => loadConfig({ DATA_DIR: dataDir, COLLECTION_FEES: 'card-acq:10001' })).toThrow('COLLECTION_FEES');
  });
});
