import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound } from '@app/domain';
import { accountDecider, refuseInflow, type Inflow } from '@app/domain/accounts';
import { inflowReferenceDecider } from '@app/domain/accounts/inflow-reference/inflow-reference';
import { modeOf } from '@app/platform/event-store/event-mode';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { ulid } from '@app/platform/ids/ulid';
import { CLOCK, type Clock } from '@app/platform/clock';
import { DomainException, foldStream, handleCommand, loadAggregate, type CommandContext } from '../../command-handling';
import { accountStream, isAccountId } from '../streams';
import { finishInflow } from './finish-inflow';
import { inflowReferenceStream } from './inflow-streams';
import { RecordInflowCommand, type InflowOutcome } from './record-inflow.command';

/**
 * Reserve the reference (with the whole inflow), credit the account, note the credit on the
 * reservation: each step idempotent, so a duplicate or a retry finishes the first inflow and is
 * answered with it. The operator acts in the account's organization and mode (decisions §11).
 */
@CommandHandler(RecordInflowCommand)
export class RecordInflowHandler implements ICommandHandler<RecordInflowCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ requestId, accountId, input }: RecordInflowCommand): Promise<InflowOutcome> {
    if (!isAccountId(accountId)) throw new DomainException(notFound('account', accountId));
    const account = await foldStream(this.store, accountStream(accountId), accountDecider);
    if (!account.owner || account.state.status !== 'open') throw new DomainException(notFound('account', accountId));
    const actor = {
      kind: 'operator' as const,
      organizationId: account.owner.organization_id,
      mode: modeOf(account.owner),
      id: 'operator',
    };
    const context: CommandContext = { actor, correlationId: requestId, causationId: requestId };
    const outcome = { organization_id: actor.organizationId, mode: actor.mode };

    // A repeat is answered with the first inflow before any other check, as a transfer's reference is.
    const reference = inflowReferenceStream(accountId, input.reference);
    const earlier = await loadAggregate(this.store, reference, inflowReferenceDecider, context);
    if (earlier && earlier.state.status !== 'free')
      return {
        ...outcome,
        transaction: await finishInflow(this.store, context, earlier.state, this.clock.now()),
        created: false,
      };

    // Every refusal before the reservation, so a refused inflow writes nothing and burns no reference.
    const refused = refuseInflow(account.state, { account_id: accountId, ...input });
    if (refused) throw new DomainException(refused);
    const inflow: Inflow = { transaction_id: `txn_${ulid()}`, account_id: accountId, ...input };
    const reserve = {
      type: 'ReserveInflowReference' as const,
      inflow,
      account_revision: account.revision,
      now: this.clock.now(),
    };
    const { state, newEvents } = await handleCommand(this.store, reference, inflowReferenceDecider, reserve, context, {
      entityId: account.state.entity_id,
    });
    if (state.status === 'free') throw new Error(`inflow reference ${input.reference} not reserved`);
    return {
      ...outcome,
      transaction: await finishInflow(this.store, context, state, this.clock.now()),
      created: newEvents.length > 0,
    };
  }
}
