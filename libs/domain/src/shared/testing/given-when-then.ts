import type { Decider, DomainEvent } from '../decider';
import { isDomainError, type DomainError } from '../domain-error';

/**
 * given(events).when(command).then(events) for decider unit tests.
 * `thenError` matches on the error code, which is the part clients depend on.
 */
export function specFor<C, E extends DomainEvent, S>(decider: Decider<C, E, S>) {
  return (given: readonly E[] = []) => ({
    when(command: C) {
      const state = given.reduce(decider.evolve, decider.initialState);
      const result = decider.decide(command, state);
      return {
        then(expected: readonly E[]) {
          if (isDomainError(result)) throw new Error(`expected events, got error ${result.code}: ${result.message}`);
          expect(result).toEqual(expected);
        },
        thenError(code: string, check?: (error: DomainError) => void) {
          if (!isDomainError(result)) throw new Error(`expected error ${code}, got events ${JSON.stringify(result)}`);
          expect(result.code).toBe(code);
          check?.(result);
        },
        thenState(check: (state: S, events: readonly E[]) => void) {
          if (isDomainError(result)) throw new Error(`expected events, got error ${result.code}`);
          check(result.reduce(decider.evolve, state), result);
        },
      };
    },
  });
}
