import type { ReviewDecision } from './entity.events';
import type { ExistingEntity } from './entity';

/**
 * The sandbox stands in for a KYC/KYB provider with one deterministic rule (decisions §3), so
 * clients can test both outcomes: a name containing "reject", in any case, fails the review.
 */
export function automaticReview(entity: ExistingEntity): { decision: ReviewDecision; reason: string } {
  const name = entity.type === 'individual' ? entity.profile.last_name : entity.profile.legal_name;
  const field = entity.type === 'individual' ? 'last_name' : 'legal_name';
  if (/reject/i.test(name))
    return { decision: 'rejected', reason: `Automatic review failed: ${field} matches the sandbox rejection rule` };
  return { decision: 'approved', reason: 'Automatic review passed' };
}

/** How long after submission the automatic sandbox review decides. */
export const AUTOMATIC_REVIEW_DELAY_MS = 1000;
