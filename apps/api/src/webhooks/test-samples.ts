import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ulid } from '@app/platform/ids/ulid';
import { newServiceBan, RAILS } from '@app/domain/accounts';
import { cryptoRandom } from '@app/application/accounts';
import type { CommandContext } from '@app/application/command-handling';
import { GetEntityQuery } from '@app/application/onboarding';
import type { WebhookTestSamples } from '@app/application/webhooks';
import { presentAccount, presentAccountDetails, presentCredit } from '@app/read-models/accounts/account.presenter';
import { presentEntity } from '@app/read-models/onboarding/entity.presenter';
import { CLOCK, type Clock } from '@app/platform/clock';

const STATUS_OF: Record<string, string> = {
  completed: 'successful',
  failed: 'failed',
  cancelled: 'cancelled',
  refunded: 'reversed',
  created: 'pending',
  updated: 'processing',
};

/**
 * Realistic `data` for a test event: the resource as the API shows it, through the same
 * presenters. Entities use the webhook's own entity; other resources are fresh samples that
 * belong to it (they exist nowhere else, which `test: true` tells the receiver).
 */
@Injectable()
export class ApiTestSamples implements WebhookTestSamples {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async sample(
    group: string,
    name: string,
    entityId: string,
    context: CommandContext,
  ): Promise<Record<string, unknown>> {
    const now = this.clock.now();
    const account_id = `acc_${ulid()}`;
    const money = { amount: 125_000, currency: 'USD' };
    switch (group) {
      case 'entities':
        return presentEntity(await this.queries.execute(new GetEntityQuery(context.actor, entityId)));
      case 'accounts':
        return presentAccount({
          id: account_id,
          entity_id: entityId,
          type: 'checking',
          currency: 'USD',
          display_name: 'USD account',
          service_ban: newServiceBan(cryptoRandom),
          balance: { available: 125_000, current: 125_000 },
          created: now,
          updated: now,
        });
      case 'account_details':
        return presentAccountDetails({
          id: `acd_${ulid()}`,
          account_id,
          entity_id: entityId,
          asset_type: 'fiat',
          rail: 'ach',
          currency: 'USD',
          account_number: RAILS.ach.newNumber(cryptoRandom),
          issuer: RAILS.ach.issuer,
          status: 'active',
          created: now,
          updated: now,
        });
      case 'inflows':
        return {
          ...presentCredit({ transaction_id: `txn_${ulid()}`, account_id, ...money, funded: now }),
          status: name === 'failed' ? 'failed' : 'settled',
        };
      case 'outflows':
        return {
          id: `trf_${ulid()}`,
          object: 'transfer',
          account_id,
          entity_id: entityId,
          counterparty_id: `cpt_${ulid()}`,
          payment_detail_id: `pmd_${ulid()}`,
          direction: 'outflow',
          ...money,
          fee: 150,
          status: STATUS_OF[name],
          status_reason: name === 'failed' ? 'beneficiary_account_closed' : null,
          payment_type: 'bank-transfer',
          description: 'Invoice 1042',
          unique_reference: `ref-${now}`,
          metadata: {},
          created: now,
          updated: now,
        };
      case 'funding_sessions':
        return {
          id: `fds_${ulid()}`,
          object: 'funding_session',
          entity_id: entityId,
          account_id,
          ...money,
          status: name,
          created: now,
          updated: now,
        };
      case 'payment_intent':
        return {
          id: `pi_${ulid()}`,
          object: 'payment_intent',
          entity_id: entityId,
          account_id,
          ...money,
          applicable_fee: 300,
          payment_method: 'card',
          status: name === 'completed' ? 'succeeded' : name,
          status_reason: name === 'failed' ? 'card_declined' : null,
          reference: `order-${now}`,
          created: now,
          updated: now,
        };
      default:
        throw new Error(`no sample for ${group}`);
    }
  }
}
