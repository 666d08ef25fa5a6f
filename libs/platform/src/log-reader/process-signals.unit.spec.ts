import { Signal } from './process-signals';

describe('Signal', () => {
  it('wakes a waiter on notify, before its timeout', async () => {
    const signal = new Signal();
    // A bound no test waits out: only the notify can answer (true; the timeout answers false).
    const woken = signal.wait(600_000);
    signal.notify();
    await expect(woken).resolves.toBe(true);
  });

  it('answers false when nothing notifies within the timeout', async () => {
    await expect(new Signal().wait(20)).resolves.toBe(false);
  });

  it('forgets a waiter once it has woken, and a listener once it is off', () => {
    const signal = new Signal();
    const calls: string[] = [];
    const off = signal.on(() => calls.push('listener'));
    void signal.wait(1_000).then(() => calls.push('waiter'));
    signal.notify();
    off();
    signal.notify();
    expect(calls).toEqual(['listener']);
    expect((signal as unknown as { listeners: Set<unknown> }).listeners.size).toBe(0);
  });
});
