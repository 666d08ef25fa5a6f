import type { Rail } from './rails';

/**
 * Uniqueness is a reservation: a stream named after the value, appended with "no stream" expected,
 * so exactly one writer can ever claim a service BAN or an account number on a rail.
 */
export type AccountReservationEvent =
  | {
      readonly type: 'ServiceBanReserved';
      readonly data: { readonly service_ban: string; readonly account_id: string };
    }
  | {
      readonly type: 'AccountNumberReserved';
      readonly data: {
        readonly rail: Rail;
        readonly account_number: string;
        readonly account_id: string;
        readonly account_details_id: string;
      };
    };
