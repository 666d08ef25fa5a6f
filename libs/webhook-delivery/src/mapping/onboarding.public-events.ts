import { entityDecider, type ExistingEntity } from '@app/domain/onboarding';
import { presentEntity } from '@app/read-models/onboarding/entity.presenter';
import type { PublicEventRule, PublicEventTable } from './public-event';

const entity = (event: string): PublicEventRule => ({
  events: [event],
  data: async (_name, _recorded, stateAt) => presentEntity((await stateAt(entityDecider)) as ExistingEntity),
});

/** docs/decisions/onboarding.md: creation, and the review result or an update, as the entity. */
export const ONBOARDING_PUBLIC_EVENTS: PublicEventTable = {
  EntityCreated: entity('entities.created'),
  EntityUpdated: entity('entities.updated'),
  EntityApproved: entity('entities.updated'),
  EntityRejected: entity('entities.updated'),
};
