'use strict';
/**
 * The soak's workload: a world of entities, accounts (USD, KES, USC), counterparties with every
 * kind of payment detail, issued cards and webhooks, and clients that act on it with operations
 * drawn from their own seeded stream. Every 2xx answer goes into the journal, which the final
 * checks hold the server to; refusals (4xx) are counted; an unkeyed write whose answer was lost
 * is unknown and never counted on.
 */
const { constants, createHash, publicEncrypt } = require('node:crypto');
const { luhnPan } = require('./prng');

/** Minor units per currency: USC has 6 decimals, the others 2, so USC amounts are scaled up. */
const SCALE = { USD: 1, KES: 1, USC: 10_000 };
const MERCHANT = {
  name: 'Soak Books',
  mcc: '5942',
  city: 'Lagos',
  state: 'LA',
  postal_code: '100001',
  country: 'NG',
};
const ADDRESS = {
  address_line_one: '1 Analytical Way',
  city: 'London',
  state: 'LDN',
  country: 'GB',
};
const CUSTOMER = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
};
const DETAILS = {
  'bank-transfer': {
    payment_method: 'bank-transfer',
    currency: 'USD',
    country: 'US',
    bank: {
      account_number: '123456789',
      account_name: 'Grace Hopper',
      scheme: 'aba',
      code: '021000021',
    },
  },
  'momo-transfer': {
    payment_method: 'momo-transfer',
    currency: 'KES',
    country: 'KE',
    momo: { phone_number: '+254712345678', provider: 'mpesa' },
  },
  'stablecoin-transfer': {
    payment_method: 'stablecoin-transfer',
    currency: 'USC',
    country: 'US',
    wallet: {
      address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      chain: 'ethereum',
    },
  },
};
const CURRENCY_OF = {
  'bank-transfer': 'USD',
  'momo-transfer': 'KES',
  'stablecoin-transfer': 'USC',
  'book-transfer': 'USD',
};
const FILTERED_EVENTS = {
  outflows: ['created', 'completed', 'failed'],
  payment_intent: ['completed', 'refunded'],
  card_transactions: ['created', 'updated'],
  inflows: ['completed'],
};

/** Operation weights of a client's stream. */
const WEIGHTS = {
  fund: 10,
  'bank-transfer': 10,
  'momo-transfer': 6,
  'stablecoin-transfer': 6,
  'book-transfer': 8,
  walletIntent: 7,
  cardIntent: 5,
  refund: 3,
  cardHold: 9,
  cardSettle: 8,
  cardPurchase: 3,
  newEntity: 0.3,
  newCard: 0.5,
  readAccount: 6,
  readTransfer: 4,
};

/** The Standard Webhooks key of a webhook secret, as decisions §9 define it: whsec_ + base64(SHA-512(secret)). */
const signingSecretOf = (secret) => `whsec_${createHash('sha512').update(secret, 'utf8').digest('base64')}`;

function newJournal() {
  return {
    entities: new Map(),
    accounts: new Map(),
    counterparties: new Map(),
    details: new Map(),
    transfers: new Map(),
    /** `${account}|${unique_reference}` → transfer id, from 201s and 409 duplicate answers */
    references: new Map(),
    funds: [],
    intents: new Map(),
    refunds: [],
    cards: new Map(),
    cardTransactions: new Map(),
    webhooks: new Map(),
    /** every PAN and CVV the soak created or sent, for the scan of DATA_DIR */
    pans: new Set(),
    cvvs: new Set(),
  };
}

class Workload {
  /**
   * @param {{ prng: import('./prng').Prng, client: import('./client').Client, receiver: import('./receiver').Receiver, journal: ReturnType<typeof newJournal>, onViolation: (what: string) => void, tag: string }} options
   */
  constructor(options) {
    Object.assign(this, options);
    this.entities = [];
    this.pendingHolds = [];
    /** account → the unique_references known to be taken on it */
    this.refsByAccount = new Map();
    /** intent ids with something left to refund */
    this.refundable = [];
    this.transferIds = [];
    this.counters = { webhooks: 0, keys: 0, refs: 0, ops: {} };
    this.publicKey = null;
  }

  key(prng, p = 0.8) {
    return prng.chance(p) ? `soak-${this.tag}-${++this.counters.keys}` : undefined;
  }

  count(op, outcome) {
    const c = (this.counters.ops[op] = this.counters.ops[op] || {
      ok: 0,
      refused: 0,
      unknown: 0,
    });
    c[outcome] += 1;
  }

  outcome(op, res) {
    this.count(op, res.status >= 200 && res.status < 300 ? 'ok' : res.unknown ? 'unknown' : 'refused');
    if (res.status >= 500)
      this.onViolation(
        `${op} answered ${res.status} ${res.body && res.body.code}: ${JSON.stringify(res.body).slice(0, 300)}`,
      );
  }

  // ── the world ────────────────────────────────────────────────────────────────────────────────

  async setup(entities) {
    const prng = this.prng.fork('setup');
    const me = await this.client.call('GET', '/api-keys/current');
    if (me.status !== 200) throw new Error(`GET /api-keys/current answered ${me.status}`);
    this.publicKey = me.body.encryption_public_key;
    for (let i = 0; i < entities; i++) await this.onboard(prng, { webhook: i < 3, filtered: i % 2 === 0 });
    if (this.entities.length < 2) throw new Error('setup created fewer than two entities');
  }

  /** An approved entity with its accounts (funded), payment details, a card, and maybe webhooks. Always keyed. */
  async onboard(prng, { webhook, filtered }) {
    const n = this.entities.length + 1;
    const created = await this.client.call(
      'POST',
      '/entities',
      {
        type: 'individual',
        first_name: 'Soak',
        last_name: `Entity${n}`,
        email: `soak${n}@example.com`,
        country: 'GB',
      },
      { key: this.key(prng, 1) },
    );
    this.outcome('newEntity', created);
    if (created.status !== 201) return null;
    const entity = {
      id: created.body.id,
      accounts: { USD: [], KES: [], USC: [] },
      counterparty: null,
      details: {},
      book: new Map(),
      cards: [],
    };
    this.journal.entities.set(entity.id, { status: created.body.status });
    if (webhook) await this.webhook(prng, entity.id, { all: true });
    if (webhook && filtered) await this.webhook(prng, entity.id, FILTERED_EVENTS);
    for (const currency of ['USD', 'USD', 'KES', 'USC']) {
      const opened = await this.client.call(
        'POST',
        '/accounts',
        {
          entity_id: entity.id,
          type: 'checking',
          currency,
          display_name: `Soak ${currency}`,
        },
        { key: this.key(prng, 1) },
      );
      if (opened.status !== 201) continue;
      this.journal.accounts.set(opened.body.id, {
        entity: entity.id,
        currency,
      });
      entity.accounts[currency].push(opened.body.id);
      await this.fund(prng, opened.body.id, currency, 2_000_000);
    }
    const cp = await this.client.call(
      'POST',
      '/counterparties',
      {
        type: 'individual',
        entity_id: entity.id,
        profile: { first_name: 'Grace', last_name: `Payee${n}` },
      },
      { key: this.key(prng, 1) },
    );
    if (cp.status === 201) {
      entity.counterparty = cp.body.id;
      this.journal.counterparties.set(cp.body.id, { entity: entity.id });
      for (const [type, body] of Object.entries(DETAILS)) {
        const pmd = await this.client.call('POST', `/counterparties/${cp.body.id}/payment-details`, body, {
          key: this.key(prng, 1),
        });
        if (pmd.status === 201) {
          entity.details[type] = pmd.body.id;
          this.journal.details.set(pmd.body.id, { counterparty: cp.body.id });
        }
      }
    }
    if (entity.accounts.USD.length) await this.issueCard(prng, entity, entity.accounts.USD[0]);
    this.entities.push(entity);
    return entity;
  }

  /** A webhook to the receiver; its signing secret is derived here, so a delivery that comes before the answer verifies too. */
  async webhook(prng, entityId, enabled) {
    const n = ++this.counters.webhooks;
    const path = `/wh/${n}`;
    const secret = `soak-${this.tag}-webhook-${n}-secret`;
    this.receiver.register(path, signingSecretOf(secret));
    const res = await this.client.call(
      'POST',
      '/entity-webhooks',
      {
        entity_id: entityId,
        url: this.receiver.url(path),
        secret,
        enabled_events: enabled,
      },
      { key: this.key(prng, 1) },
    );
    this.outcome('webhook', res);
    if (res.status !== 201) return;
    if (res.body.signing_secret !== signingSecretOf(secret))
      this.onViolation(`webhook ${res.body.id}: signing_secret is not whsec_ + base64(SHA-512(secret))`);
    this.journal.webhooks.set(res.body.id, { entity: entityId, path, enabled });
  }

  async issueCard(prng, entity, accountId) {
    const body = {
      account_id: accountId,
      card_name: `Soak ${entity.cards.length + 1}`,
      currency: 'USD',
      amount: 1_000_000_000,
      cardholder: {
        first_name: 'Ada',
        last_name: 'Okafor',
        email: 'ada@example.com',
        phone_number: '+2348012345678',
      },
    };
    const res = await this.client.call('POST', '/virtual-cards', body, {
      key: this.key(prng, 1),
    });
    this.outcome('newCard', res);
    if (res.status !== 201) return;
    const card = res.body.data;
    this.journal.pans.add(card.number);
    this.journal.cvvs.add(card.cvv);
    this.journal.cards.set(card.id, {
      entity: entity.id,
      account: accountId,
      number: card.number,
      cvv: card.cvv,
    });
    entity.cards.push(card.id);
  }

  async fund(prng, accountId, currency, base = 200_000) {
    const amount = prng.int(base / 20, base) * SCALE[currency];
    const res = await this.client.call(
      'POST',
      `/sandbox/accounts/${accountId}/fund`,
      { amount, currency },
      { key: this.key(prng) },
    );
    this.outcome('fund', res);
    if (res.status === 201)
      this.journal.funds.push({
        account: accountId,
        transaction: res.body.id,
        amount,
      });
  }

  // ── operations ───────────────────────────────────────────────────────────────────────────────

  /** One client: operations from its own stream until `running()` says stop. */
  async runClient(index, running) {
    const prng = this.prng.fork(`client-${index}`);
    while (running()) {
      const op = prng.weighted(WEIGHTS);
      try {
        await this.operate(prng, op);
      } catch (err) {
        this.onViolation(`client ${index}, ${op}: ${err.stack || err}`);
      }
    }
  }

  async operate(prng, op) {
    const entity = prng.pick(this.entities);
    switch (op) {
      case 'fund': {
        const currency = prng.pick(['USD', 'USD', 'KES', 'USC']);
        const account = entity.accounts[currency].length ? prng.pick(entity.accounts[currency]) : null;
        if (account) await this.fund(prng, account, currency);
        return;
      }
      case 'bank-transfer':
      case 'momo-transfer':
      case 'stablecoin-transfer':
      case 'book-transfer':
        return this.transfer(prng, entity, op);
      case 'walletIntent':
      case 'cardIntent':
        return this.intent(prng, entity, op === 'cardIntent');
      case 'refund':
        return this.refund(prng);
      case 'cardHold':
      case 'cardPurchase':
        return this.authorize(prng, entity, op === 'cardHold');
      case 'cardSettle':
        return this.settle(prng);
      case 'newEntity':
        await this.onboard(prng, {
          webhook: prng.chance(0.25),
          filtered: prng.chance(0.3),
        });
        return;
      case 'newCard':
        if (entity.accounts.USD.length) await this.issueCard(prng, entity, prng.pick(entity.accounts.USD));
        return;
      case 'readAccount':
        return this.readAccount(prng, entity);
      case 'readTransfer':
        return this.readTransfer(prng);
      default:
        throw new Error(`unknown operation ${op}`);
    }
  }

  async transfer(prng, entity, type) {
    const currency = CURRENCY_OF[type];
    const accounts = entity.accounts[currency];
    if (!accounts.length || !entity.counterparty) return;
    const account = prng.pick(accounts);
    let detail = entity.details[type];
    if (type === 'book-transfer') detail = await this.bookDetail(prng, entity, account);
    if (!detail) return;
    // Some references repeat one used before on this account: the answer must be the first transfer.
    const used = this.refsByAccount.get(account) || [];
    const reuse = used.length > 0 && prng.chance(0.12);
    const reference = reuse ? prng.pick(used) : `soak-${this.tag}-ref-${++this.counters.refs}`;
    const body = {
      account_id: account,
      payment_detail_id: detail,
      amount: prng.int(100, 20_000) * SCALE[currency],
      payment_type: type,
      description: 'Soak payout',
      unique_reference: reference,
    };
    const path = prng.chance(0.5) ? '/transfer' : '/transfers';
    const key = this.key(prng);
    const res = await this.client.call('POST', path, body, { key });
    this.outcome(type, res);
    this.noteTransferAnswer(entity.id, body, res);
    // The same request again under the same key: the same answer, replayed.
    if (key && res.status === 201 && prng.chance(0.1)) {
      const again = await this.client.call('POST', path, body, { key });
      if (again.status !== 201 || again.body.id !== res.body.id)
        this.onViolation(
          `transfer replay under key ${key} answered ${again.status} ${again.body && again.body.id}, first ${res.body.id}`,
        );
      else if (!again.replayed)
        this.onViolation(`transfer ${res.body.id}: a repeat under key ${key} ran again instead of being replayed`);
    }
  }

  noteTransferAnswer(entityId, body, res) {
    const ref = `${body.account_id}|${body.unique_reference}`;
    let id = null;
    if (res.status === 201) id = res.body.id;
    else if (res.status === 409 && res.body && res.body.code === 'duplicate_unique_reference')
      id = res.body.id || (res.body.transfer && res.body.transfer.id);
    if (!id) return;
    const known = this.journal.references.get(ref);
    if (known && known !== id)
      this.onViolation(
        `two transfers for unique_reference ${body.unique_reference} on ${body.account_id}: ${known} and ${id}`,
      );
    if (!known) {
      this.journal.references.set(ref, id);
      if (!this.refsByAccount.has(body.account_id)) this.refsByAccount.set(body.account_id, []);
      this.refsByAccount.get(body.account_id).push(body.unique_reference);
    }
    if (!this.journal.transfers.has(id)) this.transferIds.push(id);
    if (res.status === 201)
      this.journal.transfers.set(id, {
        entity: entityId,
        account: body.account_id,
        amount: body.amount,
        status: res.body.status,
        reference: body.unique_reference,
        type: body.payment_type,
      });
    else if (!this.journal.transfers.has(id))
      this.journal.transfers.set(id, {
        entity: entityId,
        account: body.account_id,
        amount: res.body.amount ?? (res.body.transfer && res.body.transfer.amount),
        status: null,
        reference: body.unique_reference,
        type: body.payment_type,
      });
  }

  /** A book payment detail on the entity's counterparty to another USD account of the organization. */
  async bookDetail(prng, entity, source) {
    const targets = this.entities.flatMap((e) => e.accounts.USD).filter((a) => a !== source);
    if (!targets.length) return null;
    const target = prng.pick(targets);
    if (entity.book.has(target)) return entity.book.get(target);
    const res = await this.client.call(
      'POST',
      `/counterparties/${entity.counterparty}/payment-details`,
      {
        payment_method: 'book-transfer',
        currency: 'USD',
        country: 'US',
        book: { account_id: target },
      },
      { key: this.key(prng, 1) },
    );
    this.outcome('paymentDetail', res);
    if (res.status !== 201) return null;
    this.journal.details.set(res.body.id, {
      counterparty: entity.counterparty,
    });
    entity.book.set(target, res.body.id);
    return res.body.id;
  }

  async intent(prng, entity, withCard) {
    if (!entity.accounts.USD.length) return;
    const account = prng.pick(entity.accounts.USD);
    let action;
    if (withCard) {
      const declined = prng.chance(0.1);
      const pan = declined ? '4000000000000002' : luhnPan(prng);
      const cvv = prng.digits(3);
      if (!declined) this.journal.pans.add(pan);
      this.journal.cvvs.add(cvv);
      const card = {
        card_number: pan,
        expiration_month: '12',
        expiration_year: String(new Date().getUTCFullYear() + 2),
        cvv,
        card_holder_name: 'Ada Lovelace',
      };
      const data = publicEncrypt(
        {
          key: this.publicKey,
          padding: constants.RSA_PKCS1_OAEP_PADDING,
          oaepHash: 'sha256',
        },
        Buffer.from(JSON.stringify(card)),
      ).toString('base64');
      action = {
        action: 'confirm',
        category: 'collections',
        payment_type: 'card-acq',
        payment_type_data: {
          data,
          auth_model: '3ds_disabled',
          billing_address: ADDRESS,
        },
        customer: CUSTOMER,
      };
    } else {
      action = {
        action: 'confirm',
        category: 'collections',
        payment_type: 'walletpay-acq',
        payment_type_data: {
          billing_address: { country: 'GB' },
          auth_model: '3ds_disabled',
        },
        customer: CUSTOMER,
      };
    }
    const amount = prng.int(1_000, 50_000);
    const body = {
      account_id: account,
      currency: 'USD',
      amount,
      reference: `soak-${this.tag}-pi-${++this.counters.refs}`,
      intent_action: action,
    };
    const res = await this.client.call('POST', '/payment-intents', body, {
      key: this.key(prng),
    });
    this.outcome(withCard ? 'cardIntent' : 'walletIntent', res);
    if (res.status !== 201) return;
    this.journal.intents.set(res.body.id, {
      account,
      entity: entity.id,
      amount,
      status: res.body.status,
      refundable: res.body.status === 'completed' ? amount : 0,
    });
    if (res.body.status === 'completed') this.refundable.push(res.body.id);
  }

  async refund(prng) {
    if (!this.refundable.length) return;
    const id = prng.pick(this.refundable);
    const intent = this.journal.intents.get(id);
    if (intent.refundable <= 0) {
      this.refundable.splice(this.refundable.indexOf(id), 1);
      return;
    }
    const amount = prng.int(1, intent.refundable);
    const res = await this.client.call(
      'POST',
      `/payment-intents/${id}/refunds`,
      { amount, reason: 'soak refund' },
      { key: this.key(prng) },
    );
    this.outcome('refund', res);
    if (res.status === 201) {
      intent.refundable -= amount;
      this.journal.refunds.push({ intent: id, id: res.body.id, amount });
    } else if (res.status === 0) intent.refundable = 0; // it may have happened: leave this intent alone
  }

  async authorize(prng, entity, hold) {
    if (!entity.cards.length) return;
    const card = prng.pick(entity.cards);
    const body = {
      amount: prng.int(100, 5_000),
      currency: 'USD',
      merchant: MERCHANT,
    };
    if (hold) body.capture = false;
    const res = await this.client.call('POST', `/sandbox/cards/${card}/authorizations`, body, { key: this.key(prng) });
    this.outcome(hold ? 'cardHold' : 'cardPurchase', res);
    if (res.status !== 200 && res.status !== 201) return;
    const txn = res.body.data;
    this.journal.cardTransactions.set(txn.id, {
      card,
      amount: txn.amount,
      status: txn.status,
    });
    if (hold && txn.status === 'pending') this.pendingHolds.push(txn.id);
  }

  /** Captures (fully or partly) or reverses a pending hold. */
  async settle(prng) {
    if (!this.pendingHolds.length) return;
    const id = this.pendingHolds.splice(prng.int(0, this.pendingHolds.length - 1), 1)[0];
    const txn = this.journal.cardTransactions.get(id);
    const capture = prng.chance(0.65);
    const amount = prng.chance(0.5) ? txn.amount : prng.int(1, txn.amount);
    const res = capture
      ? await this.client.call('POST', `/sandbox/card-transactions/${id}/capture`, { amount }, { key: this.key(prng) })
      : await this.client.call('POST', `/sandbox/card-transactions/${id}/reverse`, {}, { key: this.key(prng) });
    this.outcome(capture ? 'cardCapture' : 'cardReverse', res);
    if (res.status === 200 || res.status === 201) {
      const data = res.body.data;
      const expected = capture ? 'successful' : 'reversed';
      if (data.status !== expected)
        this.onViolation(`${capture ? 'capture' : 'reverse'} of ${id} answered status ${data.status}`);
      this.journal.cardTransactions.set(id, {
        card: txn.card,
        amount: capture ? amount : txn.amount,
        status: data.status,
      });
    }
  }

  async readAccount(prng, entity) {
    const currency = prng.pick(['USD', 'KES', 'USC']);
    if (!entity.accounts[currency].length) return;
    const id = prng.pick(entity.accounts[currency]);
    const res = await this.client.call('GET', `/accounts/${id}`);
    this.outcome('readAccount', res);
    if (res.status !== 200)
      return this.onViolation(`GET /accounts/${id} of an acknowledged account answered ${res.status}`);
    const { available, current } = res.body.balance;
    if (available < 0 || current < 0)
      this.onViolation(`account ${id} below zero: available ${available}, current ${current}`);
  }

  async readTransfer(prng) {
    if (!this.transferIds.length) return;
    const id = prng.pick(this.transferIds);
    const t = this.journal.transfers.get(id);
    const res = await this.client.call('GET', `/transfers/${id}?entity_id=${t.entity}`);
    this.outcome('readTransfer', res);
    if (res.status !== 200) this.onViolation(`acknowledged transfer ${id} answered ${res.status} on GET`);
  }
}

module.exports = { Workload, newJournal, signingSecretOf };
