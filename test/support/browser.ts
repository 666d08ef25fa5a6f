import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompressSync } from 'node:zlib';
import { chromium, type BrowserContext } from 'playwright-core';

/** The flags every browser test runs Chromium with (the headless shell @sparticuz/chromium ships). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const ROOT = resolve(__dirname, '../..');

export interface Browser {
  readonly context: BrowserContext;
  /** The binary launched: inside node_modules unless CHROMIUM_PATH names another. */
  readonly executablePath: string;
  close(): Promise<void>;
}

/**
 * Chromium for tests, from the npm registry: the @sparticuz/chromium devDependency ships the
 * binary brotli-compressed, with the few shared libraries it needs beyond glibc (NSS, NSPR,
 * expat), so `npm ci` on a machine with only Node is enough. CHROMIUM_PATH may name another
 * browser instead. Anything that goes wrong throws: a browser test must fail, never skip.
 */
export async function launchChromium(options: { javaScriptEnabled?: boolean } = {}): Promise<Browser> {
  const { executablePath, libraries } = process.env.CHROMIUM_PATH
    ? { executablePath: process.env.CHROMIUM_PATH, libraries: null }
    : await unpackedChromium();
  if (!existsSync(executablePath))
    throw new Error(`No Chromium at ${executablePath} (CHROMIUM_PATH): unset it to use the one npm ci installs`);
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const env = libraries
    ? { ...process.env, LD_LIBRARY_PATH: [libraries, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':') }
    : process.env;
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: CHROMIUM_FLAGS,
      env,
      timeout: 60_000,
      ...options,
    });
    return {
      context,
      executablePath,
      close: async () => {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`Chromium at ${executablePath} did not start: ${(error as Error).message}`);
  }
}

/**
 * Unpacks the package's browser once per version into node_modules/.cache (gone with the next
 * `npm ci`), never into /tmp/chromium, where the package would reuse whatever it finds. The
 * package's own executablePath() unpacks into os.tmpdir(), so it runs in a child Node whose TMPDIR
 * is a fresh folder (Jest's process.env is not the one os.tmpdir() reads); the folder is renamed
 * into place once complete, so a crashed or concurrent unpack never leaves a half-written binary
 * where another run would trust it.
 */
async function unpackedChromium(): Promise<{ executablePath: string; libraries: string }> {
  const main = require.resolve('@sparticuz/chromium');
  const packageDir = resolve(dirname(main), '../..');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const cache = join(ROOT, 'node_modules', '.cache');
  const target = join(cache, `sparticuz-chromium-${version}`);
  if (!existsSync(join(target, 'chromium'))) {
    mkdirSync(cache, { recursive: true });
    const staging = mkdtempSync(join(cache, `sparticuz-chromium-${version}-`));
    try {
      const script = "require('@sparticuz/chromium').executablePath().then((path) => process.stdout.write(path))";
      const { stdout: unpacked } = await promisify(execFile)(process.execPath, ['-e', script], {
        cwd: ROOT,
        env: { ...process.env, TMPDIR: staging },
      });
      if (unpacked !== join(staging, 'chromium'))
        throw new Error(`@sparticuz/chromium unpacked to ${unpacked}, not into ${staging}`);
      unpackLibraries(join(packageDir, 'bin', 'al2023.tar.br'), join(staging, 'al2023'));
      try {
        renameSync(staging, target);
      } catch (error) {
        // Another run finished first: use its copy.
        if (!existsSync(join(target, 'chromium'))) throw error;
      }
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return { executablePath: join(target, 'chromium'), libraries: join(target, 'al2023', 'lib') };
}

/**
 * The package unpacks its libraries only on AWS Lambda; here they are unpacked always and put on
 * the browser's LD_LIBRARY_PATH, so no system package is needed. The archive holds plain files
 * only (a ustar tar, brotli-compressed), which is all this reads.
 */
function unpackLibraries(archive: string, into: string): void {
  const tar = brotliDecompressSync(readFileSync(archive));
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512);
    if (header[0] === 0) break;
    const field = (start: number, length: number) =>
      header.toString('utf8', start, start + length).replace(/\0.*$/s, '');
    const name = field(345, 155) ? `${field(345, 155)}/${field(0, 100)}` : field(0, 100);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] || 48);
    const path = resolve(into, name);
    if (!path.startsWith(into + '/')) throw new Error(`${archive}: ${name} is outside the archive's folder`);
    if (type === '5') mkdirSync(path, { recursive: true });
    else if (type === '0') {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, tar.subarray(offset + 512, offset + 512 + size), { mode: 0o755 });
    } else throw new Error(`${archive}: ${name} is neither a file nor a folder (type ${type})`);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  if (!existsSync(join(into, 'lib', 'libnss3.so'))) throw new Error(`${archive} held no lib/libnss3.so`);
}
