import { invalid, type DomainError } from '@app/domain';
import type { AuthModel } from '@app/domain/collections';
import type { Mode } from '@app/platform/event-store/event-mode';
import type { IntentActionInput } from './confirm-payment-intent.command';
import { refuseReturnUrl } from './return-url';

const P = 'intent_action.payment_type_data';

/**
 * The spec's conditional requirements, which depend on each other and so are not DTO shapes:
 * `data` for cards only, a full billing address for cards, `browser_info` and `return_url` unless
 * 3-D Secure is disabled; and where `return_url` may send the customer, which depends on the mode.
 */
export function refuseActionInput(input: IntentActionInput, mode: Mode): DomainError | null {
  const data = input.payment_type_data;
  const card = input.payment_type === 'card-acq';
  if (card && data.data === undefined) return invalid(`${P}.data`, 'data is required for card-acq');
  if (!card && data.data !== undefined) return invalid(`${P}.data`, 'data is not accepted for walletpay-acq');
  if (card) {
    for (const field of ['address_line_one', 'city', 'state'] as const) {
      if (!data.billing_address[field])
        return invalid(`${P}.billing_address.${field}`, `${field} is required for card-acq`);
    }
  }
  const model: AuthModel = data.auth_model ?? '3ds_required';
  if (model === '3ds_required' && data.browser_info === undefined)
    return invalid(`${P}.browser_info`, 'browser_info is required unless auth_model is 3ds_disabled');
  if (model === '3ds_required' && input.return_url === undefined)
    return invalid('intent_action.return_url', 'return_url is required unless auth_model is 3ds_disabled');
  return input.return_url === undefined ? null : refuseReturnUrl(input.return_url, mode);
}
