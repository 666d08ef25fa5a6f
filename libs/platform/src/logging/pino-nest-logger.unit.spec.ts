import { Logger } from '@nestjs/common';
import { captureLogLines } from './logger';
import { PinoNestLogger } from './pino-nest-logger';

describe("PinoNestLogger: Nest's own messages as log lines", () => {
  it("keeps the stack of an error Nest hands over itself (a start that failed: the ExceptionHandler's)", () => {
    const lines: string[] = [];
    const capture = captureLogLines((line) => lines.push(line));
    try {
      Logger.overrideLogger(new PinoNestLogger());
      new Logger('ExceptionHandler').error(new Error('database is locked'));
    } finally {
      capture.stop();
      Logger.overrideLogger(false);
    }
    const line = JSON.parse(lines[0]);
    expect(line).toMatchObject({ level: 50, context: 'ExceptionHandler', msg: 'Error: database is locked' });
    expect(line.err.stack).toContain('pino-nest-logger.unit.spec.ts');
  });

  it('writes a message with its trace as Nest gives them', () => {
    const lines: string[] = [];
    const capture = captureLogLines((line) => lines.push(line));
    try {
      new PinoNestLogger().error('it failed', 'Error: it failed\n    at here', 'Bootstrap');
    } finally {
      capture.stop();
    }
    expect(JSON.parse(lines[0])).toMatchObject({
      context: 'Bootstrap',
      trace: 'Error: it failed\n    at here',
      msg: 'it failed',
    });
  });
});
