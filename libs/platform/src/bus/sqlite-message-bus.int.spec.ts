import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMessageBusContract } from './message-bus.contract';
import { SqliteMessageBus } from './sqlite-message-bus';

const dir = mkdtempSync(join(tmpdir(), 'bus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// One file for the whole suite, so reopening the bus in a test finds the same queue and offsets.
describeMessageBusContract('sqlite', async () => new SqliteMessageBus(join(dir, 'bus.db'), 20));
