import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { KEYS } from '../support/test-app';

export const ROOT = resolve(__dirname, '..', '..');
export const REGISTER = join(ROOT, 'test', 'audit', 'ts-register.js');

/** What `npm run listen` runs (package.json: `node dist/apps/listen/src/main.js`), from its source, as replay-cli.e2e does. */
export function listenEntry(): string {
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts.listen;
  const match = /^node dist\/(\S+)\.js$/.exec(script ?? '');
  if (!match) throw new Error(`package.json "listen" should be "node dist/<entry>.js", not ${script}`);
  return join(ROOT, `${match[1]}.ts`);
}

export interface Running {
  readonly child: ChildProcess;
  readonly out: string[];
  readonly err: string[];
  readonly exited: Promise<number | null>;
  line(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

export function listen(args: string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, ['-r', REGISTER, listenEntry(), ...args], {
    cwd: ROOT,
    env: { ...process.env, PAYMENTS_API_KEY: KEYS.sandbox, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  const err: string[] = [];
  const collect = (into: string[]) => {
    let partial = '';
    return (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop()!;
      into.push(...lines);
    };
  };
  child.stdout!.on('data', collect(out));
  child.stderr!.on('data', collect(err));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return {
    child,
    out,
    err,
    exited,
    line: async (pattern, timeoutMs = 30_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        for (const line of out) {
          const match = pattern.exec(line);
          if (match) return match;
        }
        if (Date.now() > until)
          throw new Error(`listen printed no line matching ${pattern}:\n${out.join('\n')}\n${err.join('\n')}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}
