import { Inject, Injectable } from '@nestjs/common';
import { ulid } from '@app/platform/ids/ulid';
import { counterpartyDecider, notFound, type CounterpartyRecord, type CounterpartyType, type NewPaymentDetail, type PaymentDetailData, type ProfilePatch, type Scope } from '@app/domain';
import { accountDecider } from '@app/domain/accounts';
import { entityDecider } from '@app/domain/onboarding';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { accountStream, isAccountId } from '../accounts/streams';
import { DomainException, forbidden, handleCommand, loadAggregate, type Actor, type CommandContext } from '../command-handling';
import { ENTITY_ID, entityStream } from '../onboarding/streams';
import { indexPaymentDetail } from './payment-detail-index';
import { counterpartyStream, isCounterpartyId } from './streams';

export interface NewCounterparty {
  readonly entity_id: string;
  readonly type: CounterpartyType;
  readonly nickname: string | null;
  readonly profile: ProfilePatch;
  readonly meta: Readonly<Record<string, string>>;
}

export interface CounterpartyChange {
  /** With an API key: the entity to move it to (or the one it has). */
  readonly entity_id?: string;
  readonly nickname?: string;
  readonly profile?: ProfilePatch;
  readonly meta?: Readonly<Record<string, string>>;
}

/** An entity token acts for its entity only; an API key naming an entity confirms the scope. */
const scopeOf = (actor: Actor, entityId?: string): Scope | null =>
  actor.entityId ? { entity_id: actor.entityId, kind: 'token' } : entityId ? { entity_id: entityId, kind: 'confirm' } : null;

/** The owner can change (reassignment), so organization-level reads, and the decider judges the entity. */
const orgOnly = (context: CommandContext): CommandContext => ({ ...context, actor: { ...context.actor, entityId: undefined } });

@Injectable()
export class CounterpartiesService {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async create(context: CommandContext, input: NewCounterparty): Promise<CounterpartyRecord> {
    await this.requireEntity(context, input.entity_id);
    const counterparty_id = `cpt_${ulid()}`;
    const { state } = await handleCommand(
      this.store,
      counterpartyStream(counterparty_id),
      counterpartyDecider,
      { type: 'CreateCounterparty', counterparty_id, entity_id: input.entity_id, counterparty_type: input.type, nickname: input.nickname, profile: input.profile, meta: input.meta, now: Date.now() },
      orgOnly(context),
      // No entity in the stream's metadata: the owner lives in the events and may change.
      { entityId: null },
    );
    return state as CounterpartyRecord;
  }

  async get(context: Pick<CommandContext, 'actor'>, id: string, entityId?: string): Promise<CounterpartyRecord> {
    const loaded = isCounterpartyId(id) ? await loadAggregate(this.store, counterpartyStream(id), counterpartyDecider, { actor: { ...context.actor, entityId: undefined } }) : null;
    if (!loaded || loaded.state.status === 'none') throw new DomainException(notFound('counterparty', id));
    const scope = scopeOf(context.actor, entityId);
    if (scope && scope.entity_id !== loaded.state.entity_id) throw scope.kind === 'token' ? forbidden() : new DomainException(notFound('counterparty', id));
    return loaded.state;
  }

  async update(context: CommandContext, id: string, change: CounterpartyChange): Promise<CounterpartyRecord> {
    const reassignTo = context.actor.entityId ? null : change.entity_id ?? null;
    if (reassignTo) await this.requireEntity(context, reassignTo);
    return this.handle(context, id, {
      type: 'UpdateCounterparty',
      counterparty_id: id,
      scope: scopeOf(context.actor),
      reassign_to: reassignTo,
      nickname: change.nickname,
      profile: change.profile,
      meta: change.meta,
      now: Date.now(),
    });
  }

  deactivate(context: CommandContext, id: string, entityId?: string): Promise<CounterpartyRecord> {
    return this.handle(context, id, { type: 'DeactivateCounterparty', counterparty_id: id, scope: scopeOf(context.actor, entityId), now: Date.now() });
  }

  async addPaymentDetail(context: CommandContext, id: string, detail: NewPaymentDetail): Promise<PaymentDetailData> {
    const book = detail.book ? await this.bookDestination(context, detail.book.account_id) : null;
    const payment_detail_id = `pmd_${ulid()}`;
    const state = await this.handle(context, id, { type: 'AddPaymentDetail', counterparty_id: id, scope: scopeOf(context.actor), payment_detail_id, detail, book, now: Date.now() });
    // Before answering, so a payout naming the new id finds it at once.
    await indexPaymentDetail(this.store, context, payment_detail_id, id);
    return state.payment_details.find((d) => d.payment_detail_id === payment_detail_id)!;
  }

  private async handle(context: CommandContext, id: string, command: Parameters<typeof counterpartyDecider.decide>[0]): Promise<CounterpartyRecord> {
    if (!isCounterpartyId(id)) throw new DomainException(notFound('counterparty', id));
    const { state } = await handleCommand(this.store, counterpartyStream(id), counterpartyDecider, command, orgOnly(context));
    return state as CounterpartyRecord;
  }

  /** The entity must exist in the organization (404 otherwise, exactly as a missing one). */
  private async requireEntity(context: CommandContext, entityId: string): Promise<void> {
    const loaded = ENTITY_ID.test(entityId) ? await loadAggregate(this.store, entityStream(entityId), entityDecider, context) : null;
    if (!loaded || loaded.state.status === 'none') throw new DomainException(notFound('entity', entityId));
  }

  /** A book transfer lands in any open account of the organization, whichever entity holds it. */
  private async bookDestination(context: CommandContext, accountId: string) {
    if (!isAccountId(accountId)) return null;
    const loaded = await loadAggregate(this.store, accountStream(accountId), accountDecider, orgOnly(context));
    return loaded && loaded.state.status === 'open' ? { account_id: accountId, currency: loaded.state.currency } : null;
  }
}
