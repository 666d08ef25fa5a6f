import type { Rail } from '@app/domain/accounts';

export const accountStream = (id: string) => `account-${id}`;
/**
 * Ids from a URL are checked before they name a stream: `account-` is also the prefix of the
 * `account-number-…` reservations, which must never be read as an account.
 */
export const isAccountId = (id: string) => /^acc_[0-9A-HJKMNP-TV-Z]{26}$/.test(id);
/** The onboarding context's stream of an entity, read here to check its status. */
export const entityStream = (id: string) => `entity-${id}`;
export const serviceBanStream = (ban: string) => `service-ban-${ban}`;
/** Per rail: the same digits on two rails are two different coordinates. */
export const accountNumberStream = (rail: Rail, accountNumber: string) => `account-number-${rail}-${accountNumber}`;
