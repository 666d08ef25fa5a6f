import { isDomainError } from '../../shared';
import { parseControls } from './controls.parse';

const GROUPS = { gambling: ['7995'] };

describe('parseControls', () => {
  it('defaults to a monthly cycle from the 1st, no limits, MCC entries open', () => {
    expect(parseControls({ individual_mcc_controls: [{ mcc: '5812' }] }, GROUPS)).toEqual({
      individual: {
        billing_cycle: 'Monthly',
        billing_cycle_day: '1',
        cycle_transaction_count: null,
        daily_amount_limit: null,
        daily_transaction_count: null,
        transaction_amount_limit: null,
      },
      mcc: [
        {
          mcc: '5812',
          open: true,
          cumulative_amount_limit: null,
          cycle_transaction_count: null,
          daily_amount_limit: null,
          daily_transaction_count: null,
          transaction_amount_limit: null,
        },
      ],
      groups: [],
    });
  });

  it.each([
    [
      { individual_controls: { billing_cycle: 'Weekly', billing_cycle_day: 'Funday' } },
      'individual_controls.billing_cycle_day',
    ],
    [
      { individual_controls: { billing_cycle: 'Monthly', billing_cycle_day: '31' } },
      'individual_controls.billing_cycle_day',
    ],
    [{ individual_controls: { daily_transaction_count: 1.5 } }, 'individual_controls.daily_transaction_count'],
    [{ individual_mcc_controls: [{ mcc: '5812' }, { mcc: '5812' }] }, 'individual_mcc_controls[1].mcc'],
    [{ individual_mcc_controls: [{ mcc: '5812', open: 'no' }] }, 'individual_mcc_controls[0].open'],
    [{ mcc_group_controls: [{ group_name: 'gambling', limit: 1 }] }, 'mcc_group_controls[0].limit'],
    [{ mcc_group_controls: [{ group_name: 'unknown' }] }, 'mcc_group_controls[0].group_name'],
  ])('refuses %j naming %s', (input, field) => {
    const result = parseControls(input as never, GROUPS);
    expect(isDomainError(result) && result.errors?.[0].field).toBe(field);
  });
});
