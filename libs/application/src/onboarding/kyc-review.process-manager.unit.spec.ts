import type { CommandBus } from '@nestjs/cqrs';
import type { RecordedEvent } from '@app/platform/event-store/event-store.port';
import { kycReviewManager } from './kyc-review.process-manager';

const submitted = (mode?: 'sandbox' | 'live') =>
  ({
    id: 'evt_1',
    streamId: 'entity-ent_1',
    type: 'OnboardingSubmitted',
    data: { entity_id: 'ent_1', submitted: 0 },
    metadata: { organization_id: 'org_a', correlation_id: 'req_1', mode },
    revision: 3,
    position: 10,
  }) as unknown as RecordedEvent;

describe('the automatic KYC review (a sandbox simulator)', () => {
  const signal = new AbortController().signal;

  it('reviews a sandbox submission (and one written before modes) in its organization and mode', async () => {
    const execute = jest.fn().mockResolvedValue(undefined);
    const manager = kycReviewManager({ execute } as unknown as CommandBus, 0);
    await manager.handle(submitted('sandbox'), signal);
    await manager.handle(submitted(), signal);
    expect(execute).toHaveBeenCalledTimes(2);
    expect(execute.mock.calls[0][0].context.actor).toMatchObject({
      organizationId: 'org_a',
      mode: 'sandbox',
      kind: 'system',
    });
  });

  it('never touches a live entity', async () => {
    const execute = jest.fn();
    await kycReviewManager({ execute } as unknown as CommandBus, 0).handle(submitted('live'), signal);
    expect(execute).not.toHaveBeenCalled();
  });
});
