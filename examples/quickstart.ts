/**
 * Quick start with the typed client (clients/typescript): an entity, a USD account, sandbox
 * money, a recipient with bank details, and a payout; each step is checked by the compiler
 * against the API's OpenAPI document.
 *
 *   KEY=sk_test_… npm run example:quickstart          # against http://localhost:3000 (API=… to change)
 *
 * A test runs it against the app listening on a port (test/openapi/typed-client.e2e.spec.ts).
 */
import { createPaymentsClient, idempotencyKey, type PaymentsClient, type Schemas } from '../clients/typescript';

export interface QuickstartResult {
  readonly entity: Schemas['QuickStartEntity'];
  readonly account: Schemas['Account'];
  readonly transfer: Schemas['Transfer'];
}

/** openapi-fetch answers `{data}` or `{error}` (the error envelope): stop at the first error. */
function ok<T>(step: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

export async function quickstart(
  api: PaymentsClient,
  log: (line: string) => void = console.log,
): Promise<QuickstartResult> {
  // 1. An individual, approved at once in sandbox.
  const entity = ok(
    'create entity',
    await api.POST('/entities', {
      body: { type: 'individual', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', country: 'GB' },
    }),
  );
  log(`entity ${entity.id}: ${entity.status}`);

  // 2. A USD account, and sandbox money into it.
  const account = ok(
    'open account',
    await api.POST('/accounts', { body: { entity_id: entity.id, currency: 'USD', display_name: 'Main' } }),
  );
  const credit = ok(
    'fund',
    await api.POST('/sandbox/accounts/{id}/fund', {
      params: { path: { id: account.id } },
      body: { amount: 150_000, currency: 'USD' },
    }),
  );
  log(`account ${account.id}: funded ${credit.amount} ${credit.currency}`);

  // 3. A recipient and its bank coordinates.
  const counterparty = ok(
    'create counterparty',
    await api.POST('/counterparties', {
      body: { type: 'individual', entity_id: entity.id, profile: { first_name: 'Grace', last_name: 'Hopper' } },
    }),
  );
  const details = ok(
    'add payment details',
    await api.POST('/counterparties/{id}/payment-details', {
      params: { path: { id: counterparty.id } },
      body: {
        payment_method: 'bank-transfer',
        currency: 'USD',
        country: 'US',
        bank: { account_number: '123456789', scheme: 'aba', code: '021000021' },
      },
    }),
  );

  // 4. A payout; the Idempotency-Key makes a retry of this very request safe.
  const transfer = ok(
    'create transfer',
    await api.POST('/transfer', {
      params: { header: { 'Idempotency-Key': idempotencyKey() } },
      body: {
        account_id: account.id,
        payment_detail_id: details.id,
        amount: 50_000,
        payment_type: 'bank-transfer',
        unique_reference: `quickstart-${Date.now()}`,
      },
    }),
  );
  log(`transfer ${transfer.id}: ${transfer.status}, ${transfer.amount} + fee ${transfer.fee} ${transfer.currency}`);

  const after = ok('read account', await api.GET('/accounts/{id}', { params: { path: { id: account.id } } }));
  log(`balance: available ${after.balance.available}, current ${after.balance.current}`);
  return { entity, account: after, transfer };
}

if (require.main === module) {
  const apiKey = process.env.KEY;
  if (!apiKey) {
    console.error('Set KEY to an API key (the one npm start printed, or one of PAYMENTS_BOOTSTRAP_API_KEYS)');
    process.exit(2);
  }
  quickstart(createPaymentsClient({ baseUrl: process.env.API ?? 'http://localhost:3000', apiKey })).catch(
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
