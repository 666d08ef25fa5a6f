import { specFor } from '../../shared/testing/given-when-then';
import { webhookIndexDecider } from './webhook-index';

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
});
