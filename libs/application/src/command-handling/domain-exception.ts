import type { DomainError } from '@app/domain';

/** Carries a domain error value through NestJS to the exception filter that renders the envelope. */
export class DomainException extends Error {
  constructor(readonly error: DomainError) {
    super(error.message);
    this.name = 'DomainException';
  }
}
