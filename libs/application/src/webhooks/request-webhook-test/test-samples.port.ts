import type { CommandContext } from '../../command-handling';

/**
 * Builds the realistic `data` of a test event for a group and name, as the API presents that
 * resource. The presenters live with the read models, so the API provides this.
 */
export interface WebhookTestSamples {
  sample(group: string, name: string, entityId: string, context: CommandContext): Promise<Record<string, unknown>>;
}

export const WEBHOOK_TEST_SAMPLES = Symbol('WEBHOOK_TEST_SAMPLES');
