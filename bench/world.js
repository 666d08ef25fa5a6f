'use strict';
// The resources the measured requests act on, created through the API before any load.
const { call, must } = require('./client');

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS || 20);
const BANK = {
  payment_method: 'bank-transfer',
  currency: 'USD',
  country: 'US',
  bank: { account_number: '123456789', scheme: 'aba', code: '021000021' },
};

/** A quick-start individual: approved at once in the sandbox, so it can hold accounts. */
const entity = async (base, last = 'Mark') =>
  (
    await must(base, 'POST', '/entities', {
      type: 'individual',
      first_name: 'Bench',
      last_name: last,
      email: 'b@example.com',
      country: 'US',
    })
  ).id;

async function fundedAccounts(base, entityId, count) {
  const accounts = [];
  for (let i = 0; i < count; i++) {
    const account = (await must(base, 'POST', '/accounts', { entity_id: entityId, currency: 'USD' })).id;
    await must(base, 'POST', `/sandbox/accounts/${account}/fund`, { amount: 1e13, currency: 'USD' });
    accounts.push(account);
  }
  return accounts;
}

const counterparty = async (base, entityId) =>
  (
    await must(base, 'POST', '/counterparties', {
      type: 'individual',
      entity_id: entityId,
      profile: { first_name: 'Grace', last_name: 'Hopper' },
    })
  ).id;

const paymentDetail = async (base, cpt) =>
  (await must(base, 'POST', `/counterparties/${cpt}/payment-details`, BANK)).id;

/** An approved entity, funded USD accounts and a bank payment detail that transfers accept. */
async function setUp(base, accountCount = ACCOUNTS) {
  const entityId = await entity(base);
  const accounts = await fundedAccounts(base, entityId, accountCount);
  const pmd = await paymentDetail(base, await counterparty(base, entityId));
  for (let i = 0; i < 100; i++) {
    const probe = await call(base, 'POST', '/transfer', {
      account_id: accounts[0],
      payment_detail_id: pmd,
      amount: 100,
      payment_type: 'bank-transfer',
      unique_reference: `probe-${i}`,
    });
    if (probe.status === 201) return { entity: entityId, accounts, pmd };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('payment detail never became visible');
}

module.exports = { BANK, entity, fundedAccounts, counterparty, paymentDetail, setUp };
