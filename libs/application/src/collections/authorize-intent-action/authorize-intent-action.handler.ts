import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  intentActionDecider,
  isIntentAction,
  type AuthorizationClaim,
  type ExistingIntentAction,
  type IntentActionRecord,
} from '@app/domain/collections';
import { EVENT_STORE, type EventStore } from '@app/platform/event-store/event-store.port';
import { CLOCK, sleep, type Clock } from '@app/platform/clock';
import { handleCommand, type CommandContext } from '../../command-handling';
import { ACQUIRER, authorizationKey, type Acquirer } from '../acquirer.port';
import { AUTHORIZATION_DEADLINE, AUTHORIZATION_DEADLINE_MS } from '../collections-config';
import { loadAction, loadIntent } from '../load';
import { settleAction } from '../settle-action';
import { intentActionStream } from '../streams';
import { AuthorizeIntentActionCommand, type AuthorizationBackstop } from './authorize-intent-action.command';

/** Never aborted: a request's wait is bounded by the claim's deadline instead. */
const NEVER = new AbortController().signal;
const POLL_FIRST_MS = 25;
const POLL_MAX_MS = 250;

/**
 * Claim, then call: the acquirer is called only by the caller whose `IntentActionAuthorizationStarted`
 * was appended (expected revision), with the key the claim recorded. A caller that finds a claim
 * waits for its outcome until the claim's deadline; then a request answers the action as it is
 * (`pending`), and the backstop claims it again and calls with the same key (the acquirer
 * deduplicates a call the dead claimant may have made).
 */
@CommandHandler(AuthorizeIntentActionCommand)
export class AuthorizeIntentActionHandler implements ICommandHandler<AuthorizeIntentActionCommand> {
  private readonly deadlineMs: number;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ACQUIRER) private readonly acquirer: Acquirer,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(AUTHORIZATION_DEADLINE) deadlineMs?: number,
  ) {
    this.deadlineMs = deadlineMs ?? AUTHORIZATION_DEADLINE_MS;
  }

  async execute({ context, intentActionId, backstop }: AuthorizeIntentActionCommand): Promise<IntentActionRecord> {
    const state = await loadAction(this.store, context.actor, intentActionId);
    const action = state.status === 'pending' ? await this.authorize(context, state, backstop) : state.action;
    await settleAction(this.store, action, context, this.clock.now());
    return action;
  }

  /** Only the action its intent was confirmed with is sent to the acquirer. */
  private async authorize(
    context: CommandContext,
    state: ExistingIntentAction,
    backstop: AuthorizationBackstop | null,
  ): Promise<IntentActionRecord> {
    const intent = await loadIntent(this.store, context.actor, state.action.payment_intent_id);
    if (intent.intent.intent_action_id !== state.action.id) return state.action;
    for (;;) {
      const claim = await this.claim(context, state.action.id, backstop);
      if ('won' in claim) return this.call(context, claim.won, claim.claim);
      const now = claim.current;
      if (now.status !== 'pending' || !now.authorization) return now.action;
      const outcome = await this.awaitOutcome(
        context,
        now.action.id,
        now.authorization.started + (backstop?.takeOverAfterMs ?? this.deadlineMs),
        backstop?.signal ?? NEVER,
      );
      // A request leaves a claim that outlived its deadline to the backstop.
      if (outcome.status !== 'pending' || !backstop) return outcome.action;
      state = outcome;
    }
  }

  private async claim(
    context: CommandContext,
    id: string,
    backstop: AuthorizationBackstop | null,
  ): Promise<{ won: ExistingIntentAction; claim: AuthorizationClaim } | { current: ExistingIntentAction }> {
    const start = {
      type: 'StartAuthorization' as const,
      intent_action_id: id,
      idempotency_key: authorizationKey(id),
      take_over_after_ms: backstop?.takeOverAfterMs ?? null,
      now: this.clock.now(),
    };
    const { state, newEvents } = await handleCommand(
      this.store,
      intentActionStream(id),
      intentActionDecider,
      start,
      context,
    );
    if (!isIntentAction(state)) return { current: await loadAction(this.store, context.actor, id) };
    return newEvents.length > 0 && state.authorization
      ? { won: state, claim: state.authorization }
      : { current: state };
  }

  private async call(
    context: CommandContext,
    state: ExistingIntentAction,
    claim: AuthorizationClaim,
  ): Promise<IntentActionRecord> {
    const { action } = state;
    const answer = await this.acquirer.authorize({
      idempotency_key: claim.idempotency_key,
      token: state.acquirer_token,
      amount: action.charge_amount,
      currency: action.currency,
      mode: context.actor.mode,
    });
    const base = { intent_action_id: action.id, now: this.clock.now() };
    const command = answer.approved
      ? { ...base, type: 'CompleteIntentAction' as const }
      : { ...base, type: 'FailIntentAction' as const, status_reason: answer.reason };
    const { state: after } = await handleCommand(
      this.store,
      intentActionStream(action.id),
      intentActionDecider,
      command,
      context,
    );
    return after.status === 'none' ? action : after.action;
  }

  /** Polls the action until it is decided or `until` passes (the claim's deadline). */
  private async awaitOutcome(
    context: CommandContext,
    id: string,
    until: number,
    signal: AbortSignal,
  ): Promise<ExistingIntentAction> {
    let delay = POLL_FIRST_MS;
    for (;;) {
      const state = await loadAction(this.store, context.actor, id);
      const left = until - this.clock.now();
      if (state.status !== 'pending' || left <= 0) return state;
      await sleep(Math.min(delay, left), signal);
      delay = Math.min(delay * 2, POLL_MAX_MS);
    }
  }
}
