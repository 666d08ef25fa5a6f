import { isDomainError } from '@app/domain';
import { parseCardData, type CardData } from '@app/domain/collections';
import { DomainException, type Actor } from '../../command-handling';
import type { CardDecryption } from '../card-decryption';
import { refuseActionInput } from './action-input';
import type { IntentActionInput } from './confirm-payment-intent.command';

/**
 * Every check of an action's input, the card decrypted and validated field by field: null for a
 * wallet; expiry is checked against `today`. The card returned must stay in the caller's memory only.
 */
export async function readCard(
  decryption: CardDecryption,
  actor: Actor,
  input: IntentActionInput,
  today: Date,
): Promise<CardData | null> {
  const refused = refuseActionInput(input, actor.mode);
  if (refused) throw new DomainException(refused);
  if (input.payment_type !== 'card-acq') return null;
  const card = parseCardData(await decryption.decrypt(actor, input.payment_type_data.data!), today);
  if (isDomainError(card)) throw new DomainException(card);
  return card;
}
