import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../../..');
const OPEN = `
  const { readSync } = require('node:fs');
  const { openSqlite } = require(${JSON.stringify(join(ROOT, 'libs/platform/src/sqlite/open-sqlite.ts'))});
  process.stdout.write('ready\\n');
  readSync(0, Buffer.alloc(1)); // every opener goes on the same word from the test
  try { openSqlite(process.argv[1], 'durable').close(); process.stdout.write('ok'); }
  catch (error) { process.stdout.write(String(error.code) + ': ' + error.message); }
`;

/** Processes that each open the same new file with `openSqlite` at one word; each answers 'ok' or its error. */
async function openTogether(file: string, count: number): Promise<string[]> {
  const openers = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, ['-r', join(ROOT, 'scripts/ts-register.js'), '-e', OPEN, file]);
    let [out, err] = ['', ''];
    child.stderr.on('data', (chunk) => (err += chunk));
    const exited = new Promise<string>((done) => child.on('exit', () => done(out.replace('ready\n', '') + err)));
    const ready = new Promise<void>((done) => {
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.startsWith('ready\n')) done();
      });
      // One that died loading answers with its error rather than keep the others waiting.
      void exited.then(() => done());
    });
    return { child, ready, answer: exited };
  });
  // Each has loaded the code and waits on its stdin: one byte to each, and they open together.
  await Promise.all(openers.map((o) => o.ready));
  for (const { child } of openers) child.stdin.end('g');
  return Promise.all(openers.map((o) => o.answer));
}

describe('openSqlite: the processes of a deployment opening one new file', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  // SQLite answers SQLITE_BUSY at once, without its busy handler, to a second connection switching
  // a new file to WAL: six processes on a fresh DATA_DIR once failed their start so (CI). Without
  // the retry, 3 to 12 of 240 such opens (forty rounds) failed.
  it('all open it, whoever switches it to WAL first', async () => {
    const failures: string[] = [];
    for (let round = 0; round < 20; round++) {
      const dir = mkdtempSync(join(tmpdir(), 'open-sqlite-'));
      dirs.push(dir);
      failures.push(...(await openTogether(join(dir, 'events.db'), 6)).filter((a) => a !== 'ok'));
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
