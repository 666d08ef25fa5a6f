'use strict';
// The resources bench:history acts on, created through the API: a sandbox entity whose payouts
// the simulator settles, spread over BENCH_HISTORY_ACCOUNTS (10) accounts; another organization's
// account (the neighbour whose reads must not wait); one live account, funded by the operator,
// whose payouts stay pending (live transfers move only when the operator advances them).
// The first sandbox account gets PAGE_FILL payouts before any size is measured, so the pages the
// bench reads (a statement page, an /events page, a /history page, PAGE items each) are full at
// every size, the smallest included: each size then reads the same work, and only the history
// around it differs.
const { KEYS, caller } = require('./history-service');
const { health } = require('./client');
const { BANK } = require('./world');

const { Blob } = require('node:buffer');

const ACCOUNTS = Number(process.env.BENCH_HISTORY_ACCOUNTS || 10);
const FUNDS = 1e13;
/** The items of each page the bench reads. */
const PAGE = 100;
/**
 * A settled payout adds two statement entries (the hold, the debit) and two account events (FundsHeld, FundsDebited):
 * 60 fill a page of 100 of either, with room to spare, and the organization's log has more than 2 × 100 events.
 */
const PAGE_FILL = 60;

const must = async (call, method, path, body, expected = [200, 201]) => {
  const r = await call(method, path, body);
  if (!expected.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

/** A bank payment detail; a payout may refer to it once the projector has it (read-your-writes is the API's, but the probe makes sure). */
async function payee(call, entity, account) {
  const cpt = (
    await must(call, 'POST', '/counterparties', {
      type: 'individual',
      entity_id: entity,
      profile: { first_name: 'Grace', last_name: 'Hopper' },
    })
  ).id;
  const pmd = (await must(call, 'POST', `/counterparties/${cpt}/payment-details`, BANK)).id;
  for (let i = 0; i < 100; i++) {
    const probe = await call('POST', '/transfer', {
      account_id: account,
      payment_detail_id: pmd,
      amount: 100,
      payment_type: 'bank-transfer',
      unique_reference: `probe-${i}`,
    });
    if (probe.status === 201) return pmd;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('payment detail never became visible');
}

async function sandboxWorld(base) {
  const call = caller(base, KEYS.sandbox);
  const entity = (
    await must(call, 'POST', '/entities', {
      type: 'individual',
      first_name: 'History',
      last_name: 'Bench',
      email: 'h@example.com',
      country: 'US',
    })
  ).id;
  const accounts = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const account = (await must(call, 'POST', '/accounts', { entity_id: entity, currency: 'USD' })).id;
    await must(call, 'POST', `/sandbox/accounts/${account}/fund`, { amount: FUNDS, currency: 'USD' });
    accounts.push(account);
  }
  const pmd = await payee(call, entity, accounts[0]);
  const other = caller(base, KEYS.other);
  const otherEntity = (
    await must(other, 'POST', '/entities', {
      type: 'individual',
      first_name: 'Other',
      last_name: 'Tenant',
      email: 'o@example.com',
      country: 'US',
    })
  ).id;
  const otherAccount = (await must(other, 'POST', '/accounts', { entity_id: otherEntity, currency: 'USD' })).id;
  // "Early in the log": the ledger as it was once the accounts were funded.
  const earlyPosition = (await health(base)).log.head;
  for (let i = 0; i < PAGE_FILL; i++) {
    await must(
      call,
      'POST',
      '/transfer',
      {
        account_id: accounts[0],
        payment_detail_id: pmd,
        amount: 100,
        payment_type: 'bank-transfer',
        unique_reference: `page-fill-${i}`,
      },
      [201],
    );
  }
  let n = 0;
  const payout = (reference) => ({
    account_id: accounts[n++ % accounts.length],
    payment_detail_id: pmd,
    amount: 100,
    payment_type: 'bank-transfer',
    unique_reference: reference,
  });
  return { entity, accounts, pmd, otherAccount, earlyPosition, payout };
}

/** A live individual (documents, submission, the operator's approval), a USD account the operator credits, and a payee. */
async function liveWorld(base, adminToken) {
  const call = caller(base, KEYS.live);
  const admin = caller(base, adminToken);
  const person = await must(call, 'POST', '/individual-entities', {
    first_name: 'Live',
    last_name: 'Bench',
    email: 'l@example.com',
    date_of_birth: '1990-01-31',
    country_of_residence: 'US',
  });
  for (const [key, bytes] of [
    ['identity', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
    ['address', Buffer.from('%PDF-1.7\n%%EOF\n')],
  ]) {
    // undici's FormData, global since Node 18 (not in the lint's list of Node globals).
    const form = new globalThis.FormData();
    form.set('key', key);
    form.set('link_to_identity[person_id]', person.person_id);
    form.set('file', new Blob([bytes], { type: 'application/octet-stream' }), `${key}.bin`);
    const res = await fetch(`${base}/documents/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.live}` },
      body: form,
    });
    if (res.status !== 201) throw new Error(`upload ${key}: ${res.status} ${await res.text()}`);
  }
  await must(call, 'POST', '/onboarding-submissions', { entity_id: person.id });
  await must(admin, 'POST', `/admin/entities/${person.id}/review`, { decision: 'approved' });
  const account = (await must(call, 'POST', '/accounts', { entity_id: person.id, currency: 'USD' })).id;
  await must(admin, 'POST', `/admin/accounts/${account}/inflows`, {
    amount: FUNDS,
    currency: 'USD',
    rail: 'bank-transfer',
    reference: 'history-funds',
    sender: 'Bench',
  });
  const pmd = await payee(call, person.id, account);
  const payout = (reference) => ({
    account_id: account,
    payment_detail_id: pmd,
    amount: 100,
    payment_type: 'bank-transfer',
    unique_reference: reference,
  });
  return { entity: person.id, account, pmd, payout };
}

module.exports = { PAGE, PAGE_FILL, sandboxWorld, liveWorld };
