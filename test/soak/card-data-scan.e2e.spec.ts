import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The soak's last check reads every file of DATA_DIR for card data; a false finding fails CI and a
// missed one hides a leak, so both directions are pinned here on real files.
const { scanForCardData } = require('../../scripts/soak/checks.js');

describe('the soak scan for card data in DATA_DIR', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'card-scan-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const journal = { pans: new Set(['4242424242424242']), cvvs: new Set(['337']) };
  function scan(content: string): string[] {
    const file = join(dir, `f-${Math.random().toString(36).slice(2)}`);
    writeFileSync(file, Buffer.from(content, 'latin1'));
    const found: string[] = [];
    scanForCardData([file], journal, (v: string) => found.push(v));
    return found;
  }

  it('finds a PAN inside a longer run of digits and a CVV next to "cvv"', () => {
    expect(scan('x 004242424242424242 y')).toEqual([expect.stringContaining('PAN 424242…4242')]);
    expect(scan('{"card":{"cvv": 337}}')).toEqual([expect.stringContaining('CVV 337 next to "cvv"')]);
    expect(scan('card_cvv=337;')).toEqual([expect.stringContaining('CVV 337')]);
  });

  it('finds a clear JSON "cvv" field whatever its digits', () => {
    expect(scan('{"cvv":"918"}')).toEqual([expect.stringContaining('a clear "cvv" field')]);
  });

  it('does not take an identifier that happens to contain CVV and digits for a CVV', () => {
    // A delivery id seen in deliveries.db by a CI soak: `whd_01M86CAXP6M4EQQ3ZQ2ZJMCVV337`.
    expect(scan('\x04I\t\x02whd_01M86CAXP6M4EQQ3ZQ2ZJMCVV337$\x04I')).toEqual([]);
    expect(scan('"cvv_check":"pass","amount":337')).toEqual([]);
  });
});
