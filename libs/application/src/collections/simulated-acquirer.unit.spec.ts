import { authorizationKey } from './acquirer.port';
import { SIMULATED_ACQUIRER_KEYS, SimulatedAcquirer } from './simulated-acquirer';

const card = (number: string) =>
  ({ number, expiration_month: 12, expiration_year: 2099, cvv: '123', card_holder_name: 'Ada' }) as never;

describe('the simulated acquirer deduplicates authorizations by idempotency key', () => {
  const request = (idempotency_key: string, token: string | null) => ({
    idempotency_key,
    token,
    amount: 10_000,
    currency: 'USD',
    mode: 'sandbox' as const,
  });

  it('the same key answers the first answer and performs nothing again', async () => {
    const acquirer = new SimulatedAcquirer();
    const tokenization = await acquirer.tokenize(card('4000000000000002'), 'sandbox');
    const token = 'token' in tokenization ? tokenization.token : null;
    const key = authorizationKey('ia_01J00000000000000000000000');
    const first = await acquirer.authorize(request(key, token));
    expect(first).toEqual({ approved: false, reason: 'card_declined' });
    expect(await acquirer.authorize(request(key, token))).toEqual(first);
    expect(acquirer.counts).toEqual({ calls: 2, performed: 1 });
  });

  it('concurrent calls with one key are one authorization; other keys are their own', async () => {
    const acquirer = new SimulatedAcquirer();
    const answers = await Promise.all([1, 2, 3].map(() => acquirer.authorize(request('ia_A', 'sim_approve_x'))));
    expect(answers).toEqual([{ approved: true }, { approved: true }, { approved: true }]);
    await acquirer.authorize(request('ia_B', 'sim_approve_x'));
    expect(acquirer.counts).toEqual({ calls: 4, performed: 2 });
  });

  it('the same key with other parameters is refused (a caller bug), performing nothing', async () => {
    const acquirer = new SimulatedAcquirer();
    await acquirer.authorize(request('ia_A', 'sim_approve_x'));
    await expect(acquirer.authorize({ ...request('ia_A', 'sim_approve_x'), amount: 1 })).rejects.toThrow(/reused/);
    expect(acquirer.counts.performed).toBe(1);
  });

  it('answers the same whatever it remembers: a replica, a restart or a forgotten key agree', async () => {
    const first = new SimulatedAcquirer();
    for (let i = 0; i <= SIMULATED_ACQUIRER_KEYS; i++)
      await first.authorize(request(`ia_${i}`, 'sim_insufficient_funds_x'));
    const again = await first.authorize(request('ia_0', 'sim_insufficient_funds_x')); // forgotten: the oldest
    const elsewhere = await new SimulatedAcquirer().authorize(request('ia_0', 'sim_insufficient_funds_x'));
    expect(again).toEqual({ approved: false, reason: 'insufficient_funds' });
    expect(elsewhere).toEqual(again);
  });

  it('refuses live, and a token it never issued', async () => {
    const acquirer = new SimulatedAcquirer();
    expect(await acquirer.authorize({ ...request('ia_L', 'sim_approve_x'), mode: 'live' })).toEqual({
      approved: false,
      reason: 'acquirer_unavailable',
    });
    expect(await acquirer.authorize(request('ia_T', 'tok_other'))).toEqual({
      approved: false,
      reason: 'invalid_card_token',
    });
  });
});
