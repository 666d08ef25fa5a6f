import { randomInt } from 'node:crypto';
import { isDomainError } from '@app/domain';
import { cardNumber, cardNumberDecider } from '@app/domain/cards';
import { WrongExpectedRevisionError, type EventStore } from '@app/platform/event-store/event-store.port';
import { retry } from '@app/platform/retry/retry';
import { DomainException, handleCommand, type CommandContext } from '../../command-handling';
import type { CardSettings } from '../card-ports';
import { cardNumberStream } from '../streams';

const ATTEMPTS = 10;
const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');

/**
 * A fresh Luhn-valid number, reserved for this card platform-wide on the stream of its keyed
 * digest; a number already taken is drawn again. Reserved under the platform (not the caller's
 * organization), since numbers are unique across every organization.
 */
export async function reserveCardNumber(
  store: EventStore,
  settings: CardSettings,
  context: CommandContext,
  cardId: string,
  now: number,
): Promise<string> {
  const claim = async () => {
    const number = cardNumber(digits(9));
    await handleCommand(
      store,
      cardNumberStream(settings.numberDigest(number)),
      cardNumberDecider,
      { card_id: cardId, now },
      context,
    );
    return number;
  };
  return retry(claim, { attempts: ATTEMPTS, retryOn: taken }).catch((error: unknown) => {
    throw taken(error) ? new Error(`no free card number after ${ATTEMPTS} draws`) : error;
  });
}

/**
 * Another organization's reservation is invisible to this caller (tenancy), so its append meets a
 * stream that exists: the store refuses it, which means the same as our own refusal.
 */
const taken = (error: unknown) =>
  error instanceof WrongExpectedRevisionError ||
  (error instanceof DomainException && isDomainError(error.error) && error.error.code === 'card_number_taken');

export const newCvv = () => digits(3);
