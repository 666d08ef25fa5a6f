import { specFor } from '../../shared/testing/given-when-then';
import { claimInFlight, CLAIM_IN_FLIGHT_MS, webhookIndexDecider } from './webhook-index';

const given = specFor(webhookIndexDecider);
const indexed = (webhook_id: string) => ({ type: 'WebhookIndexed' as const, data: { webhook_id, entity_id: 'ent_1' } });
const index = (webhook_id: string) => ({ type: 'IndexWebhook' as const, webhook_id, entity_id: 'ent_1' });

describe('webhook index', () => {
  it('lists a new webhook of the entity', () =>
    given([indexed('whk_1')])
      .when(index('whk_2'))
      .then([indexed('whk_2')]));
  it('indexing a listed webhook again records nothing', () =>
    given([indexed('whk_1'), indexed('whk_2')])
      .when(index('whk_1'))
      .then([]));
  it('folds to the webhooks in creation order', () =>
    given([indexed('whk_1'), indexed('whk_2')])
      .when(index('whk_2'))
      .thenState((s) => expect(s.webhook_ids).toEqual(['whk_1', 'whk_2'])));

  describe('authorization endpoint claims (decisions §16)', () => {
    const claim = { webhook_id: 'whk_1', revision: -1, at: 1_000 };
    const claimed = { type: 'AuthorizationEndpointClaimed' as const, data: { ...claim, entity_id: 'ent_1' } };
    it('a creation that claims is claimed and indexed in one decision', () =>
      given([])
        .when({ ...index('whk_1'), claim })
        .then([claimed, indexed('whk_1')]));
    it('an update claims for a listed webhook', () =>
      given([indexed('whk_1')])
        .when({ type: 'ClaimAuthorizationEndpoint', entity_id: 'ent_1', claim: { ...claim, revision: 3 } })
        .then([{ ...claimed, data: { ...claimed.data, revision: 3 } }]));
    it('another webhook’s claim holds while its change has not reached its stream, for a while', () =>
      given([claimed, indexed('whk_1')])
        .when(index('whk_2'))
        .thenState((s) => {
          expect(claimInFlight(s, 'whk_2', () => -1, 2_000)).toEqual(claim);
          // Landed: the webhook's own stream decides; the claimant itself; a claim gone stale (its request died).
          expect(claimInFlight(s, 'whk_2', () => 0, 2_000)).toBeNull();
          expect(claimInFlight(s, 'whk_1', () => -1, 2_000)).toBeNull();
          expect(claimInFlight(s, 'whk_2', () => -1, 1_000 + CLAIM_IN_FLIGHT_MS)).toBeNull();
        }));
  });
});
