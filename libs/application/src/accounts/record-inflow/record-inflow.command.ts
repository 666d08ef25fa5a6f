import { Command } from '@nestjs/cqrs';
import type { RecordedInflow } from '@app/domain/accounts/inflow-reference/inflow-reference';
import type { Mode } from '@app/platform/event-store/event-mode';

export interface RecordInflowInput {
  readonly amount: number;
  readonly currency: string;
  /** One of INFLOW_RAILS (the payout rails but book-transfer). */
  readonly rail: string;
  /** The sender's reference: unique per account. */
  readonly reference: string;
  readonly sender: string | null;
}

export interface InflowOutcome {
  /** The credit as the account's log has it: this request's, or the first one's for its reference. */
  readonly transaction: RecordedInflow;
  /** The account's world, for the statement entry. */
  readonly organization_id: string;
  readonly mode: Mode;
  /** false: the reference was recorded before, and `transaction` is that first credit (409). */
  readonly created: boolean;
}

/**
 * Money received on a rail for an account of any mode (decisions §11), recorded by the operator:
 * the handler acts in the account's organization and mode as `operator`, so the command carries
 * the request id (its correlation and causation) rather than an actor.
 */
export class RecordInflowCommand extends Command<InflowOutcome> {
  constructor(
    readonly requestId: string,
    readonly accountId: string,
    readonly input: RecordInflowInput,
  ) {
    super();
  }
}
