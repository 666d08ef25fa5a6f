#!/usr/bin/env node
// Checks the payments API's audit proofs offline, with Node's standard library only (Node 18+):
//
//   node examples/verify-proof.mjs proof.json [--event event.json] [--public-key key.pem]
//       an inclusion proof, as GET /events/{id}/proof answers it: the checkpoint's Ed25519
//       signature, then the audit path from the event's leaf to the signed root (RFC 9162 §2.1.3).
//       With --event (the event as GET /events or GET /{collection}/{id}/history shows it), also
//       that the leaf is that event: its id, position, revision, stream and metadata.hash.
//   node examples/verify-proof.mjs --consistency consistency.json [--public-key key.pem]
//       a consistency proof, as GET /admin/audit/checkpoints/consistency answers it: both
//       signatures, and that the second tree extends the first (RFC 9162 §2.1.4).
//   node examples/verify-proof.mjs --checkpoints checkpoints.json [--public-key key.pem]
//       every checkpoint of a GET /admin/audit/checkpoints page: its signature.
//   node examples/verify-proof.mjs --statement statement.json [--public-key key.pem]
//       a monthly statement, as GET /accounts/{id}/statements/{YYYY-MM} answers it (decisions §17):
//       its lines add up (each balance_after is the one before plus the line, the totals and the
//       closing balance follow), and its last line is the account's event the signed log holds at
//       positions.last (the inclusion proof, its stream and revision named by the line's id).
//
// --public-key is the key you trust (a PEM file, e.g. saved once from GET /admin/audit/checkpoints
// or received out of band). Without it the key inside the file is used, which proves the proof is
// consistent but not who signed it. Exit status: 0 verified, 1 not verified (says why), 2 usage.
//
// The formats (docs/decisions/audit.md, "Signed checkpoints"):
//   leaf hash  = SHA-256(0x00 || UTF-8 JSON {"hash","position","revision","stream_id"}, keys in that order, no spaces)
//   node hash  = SHA-256(0x01 || left || right)
//   signature  = Ed25519 over "payments-audit-checkpoint/v1\n<tree_size>\n<last_position>\n<root_hash>\n<timestamp>\n"
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const FORMAT = 'payments-audit-checkpoint/v1';

/**
 * The streams of the resources GET /events shows, by resource_type: `<prefix>-<resource_id>`, except
 * a transfer whose id ends in its reference key (20 upper-case hex after the ULID), which lives in
 * `transfer-ref_<key>` (docs/decisions/transfers.md, "One stream per transfer").
 */
const STREAM_PREFIX = {
  entity: 'entity',
  account: 'account',
  counterparty: 'counterparty',
  transfer: 'transfer',
  payment_intent: 'payment-intent',
  intent_action: 'intent-action',
  card: 'card',
  webhook: 'webhook',
  api_key: 'api-key',
};

const streamOf = (e) => {
  const keyed = e.resource_type === 'transfer' && /^trf_[0-9A-HJKMNP-TV-Z]{26}([0-9A-F]{20})$/.exec(e.resource_id);
  return keyed ? `transfer-ref_${keyed[1]}` : `${STREAM_PREFIX[e.resource_type] ?? '?'}-${e.resource_id}`;
};

const sha256 = (...parts) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const leafInput = (leaf) =>
  JSON.stringify({ hash: leaf.hash, position: leaf.position, revision: leaf.revision, stream_id: leaf.stream_id });
const leafHash = (leaf) => sha256(Buffer.of(0), Buffer.from(leafInput(leaf), 'utf8'));
const nodeHash = (left, right) => sha256(Buffer.of(1), left, right);
const hex = (value, what) => {
  if (typeof value !== 'string' || !/^[0-9a-f]{64}$/.test(value))
    throw new Error(`${what} is not a 64-digit lowercase hex hash`);
  return Buffer.from(value, 'hex');
};
const half = (n) => Math.floor(n / 2);
const isPowerOfTwo = (n) => n > 0 && 2 ** Math.round(Math.log2(n)) === n;

class Usage extends Error {}

/** RFC 9162 §2.1.3.2. */
function verifyInclusion(index, size, leaf, path, root) {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      r = nodeHash(r, p);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && r.equals(root);
}

/** RFC 9162 §2.1.4.2. */
function verifyConsistency(first, second, firstRoot, secondRoot, proof) {
  if (first > second) return false;
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  if (first === 0) return proof.length === 0;
  if (!proof.length) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) [fn, sn] = [half(fn), half(sn)];
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      sr = nodeHash(sr, c);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot);
}

function checkpointProblem(cp, key) {
  if (!cp || typeof cp !== 'object') return 'no checkpoint';
  for (const field of ['tree_size', 'last_position', 'timestamp'])
    if (!Number.isSafeInteger(cp[field]) || cp[field] < 0) return `checkpoint ${field} is not a non-negative integer`;
  hex(cp.root_hash, 'checkpoint root_hash');
  const keyId = sha256(key.export({ format: 'der', type: 'spki' })).toString('hex');
  if (cp.key_id !== keyId)
    return `the checkpoint names key ${String(cp.key_id).slice(0, 16)}…, not this key (${keyId.slice(0, 16)}…)`;
  const body = `${FORMAT}\n${cp.tree_size}\n${cp.last_position}\n${cp.root_hash}\n${cp.timestamp}\n`;
  let ok = false;
  try {
    ok = verify(null, Buffer.from(body, 'utf8'), key, Buffer.from(String(cp.signature), 'base64'));
  } catch {
    ok = false;
  }
  return ok ? null : 'the checkpoint signature does not verify with the public key';
}

function publicKey(options, fromFile, say) {
  const pem = options.publicKey ? readFileSync(options.publicKey, 'utf8') : fromFile;
  if (!pem) throw new Usage('no public key: pass --public-key key.pem');
  if (!options.publicKey)
    say('note: using the public key inside the file; pass --public-key with the key you trust to know who signed it');
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Usage('the public key is not an Ed25519 key');
  return key;
}

function describe(cp) {
  return `tree_size ${cp.tree_size} up to position ${cp.last_position}, signed ${new Date(cp.timestamp).toISOString()}`;
}

function inclusion(proof, options, say) {
  const key = publicKey(options, proof.public_key, say);
  const problem = checkpointProblem(proof.checkpoint, key);
  if (problem) return problem;
  const leaf = proof.leaf ?? {};
  if (
    !Number.isSafeInteger(leaf.position) ||
    !Number.isSafeInteger(leaf.revision) ||
    typeof leaf.stream_id !== 'string'
  )
    return 'the proof has no well-formed leaf';
  hex(leaf.hash, 'leaf hash');
  if (options.event) {
    const event = JSON.parse(readFileSync(options.event, 'utf8'));
    const shown = event.data && !event.id ? event.data : event; // a history page or a single event
    const e = Array.isArray(shown) ? shown.find((x) => x.id === proof.event_id) : shown;
    if (!e) return `the event file has no event ${proof.event_id}`;
    const stream = streamOf(e);
    const mismatch = [
      e.id !== proof.event_id && `id ${e.id} ≠ ${proof.event_id}`,
      e.position !== leaf.position && `position ${e.position} ≠ ${leaf.position}`,
      e.revision !== leaf.revision && `revision ${e.revision} ≠ ${leaf.revision}`,
      stream !== leaf.stream_id && `stream ${stream} ≠ ${leaf.stream_id}`,
      e.metadata?.hash !== leaf.hash &&
        `metadata.hash ${String(e.metadata?.hash).slice(0, 16)}… ≠ ${leaf.hash.slice(0, 16)}…`,
    ].filter(Boolean);
    if (mismatch.length) return `the event is not the proof's leaf: ${mismatch.join(', ')}`;
  }
  const computed = leafHash(leaf);
  if (proof.leaf_hash !== undefined && proof.leaf_hash !== computed.toString('hex'))
    say(
      `note: the proof's leaf_hash differs from the leaf's (${computed.toString('hex').slice(0, 16)}…); checking the leaf`,
    );
  const path = (proof.audit_path ?? []).map((h, i) => hex(h, `audit_path[${i}]`));
  if (
    !verifyInclusion(
      proof.leaf_index,
      proof.checkpoint.tree_size,
      computed,
      path,
      hex(proof.checkpoint.root_hash, 'root_hash'),
    )
  ) {
    return `the audit path does not lead from leaf ${proof.leaf_index} (position ${leaf.position}, stream ${leaf.stream_id} revision ${leaf.revision}) to the signed root: the event is not the one signed`;
  }
  return {
    ok: `event ${proof.event_id} (position ${leaf.position}, stream ${leaf.stream_id} revision ${leaf.revision}) is leaf ${proof.leaf_index} of the checkpoint of ${describe(proof.checkpoint)}`,
  };
}

function consistency(file, options, say) {
  const key = publicKey(options, file.key?.public_key, say);
  for (const which of ['first', 'second']) {
    const problem = checkpointProblem(file[which], key);
    if (problem) return `${which}: ${problem}`;
  }
  const [a, b] = [file.first, file.second];
  const proof = (file.proof ?? []).map((h, i) => hex(h, `proof[${i}]`));
  if (
    !verifyConsistency(
      a.tree_size,
      b.tree_size,
      hex(a.root_hash, 'first root_hash'),
      hex(b.root_hash, 'second root_hash'),
      proof,
    )
  ) {
    return `the checkpoint of tree_size ${b.tree_size} does not extend the one of tree_size ${a.tree_size}: the log was rewritten between them`;
  }
  return { ok: `the checkpoint of ${describe(b)} extends the one of ${describe(a)}` };
}

function checkpoints(page, options, say) {
  const key = publicKey(options, page.key?.public_key, say);
  const list = page.data ?? [];
  if (!list.length) return 'no checkpoints in the file';
  for (const cp of list) {
    const problem = checkpointProblem(cp, key);
    if (problem) return `checkpoint tree_size ${cp.tree_size}: ${problem}`;
  }
  return { ok: `${list.length} checkpoint(s) signed by this key, the latest ${describe(list[0])}` };
}

/** What a line does to balance.current; anything else is not a statement line. */
const DELTA = { credit: 1, reversal: 1, debit: -1 };

function statementLinesProblem(s) {
  if (!Number.isSafeInteger(s.opening_balance)) return 'opening_balance is not an integer';
  let balance = s.opening_balance;
  let [credits, debits] = [0, 0];
  for (const [i, line] of (s.lines ?? []).entries()) {
    const sign = DELTA[line.type];
    if (!sign || !Number.isSafeInteger(line.amount) || line.amount <= 0)
      return `line ${i} (${line.id}) is not a posted credit, debit or reversal of a positive amount`;
    balance += sign * line.amount;
    if (sign > 0) credits += line.amount;
    else debits += line.amount;
    if (line.balance_after?.current !== balance)
      return `line ${i} (${line.id}): balance_after.current ${line.balance_after?.current} ≠ ${balance}, the balance before it ${sign > 0 ? '+' : '−'} ${line.amount}`;
    const previous = s.lines[i - 1];
    if (previous && !(line.position > previous.position))
      return `line ${i} (${line.id}) is not after line ${i - 1} in the log`;
  }
  if (credits !== s.credits_total) return `credits_total ${s.credits_total} ≠ ${credits}, the sum of the credit lines`;
  if (debits !== s.debits_total) return `debits_total ${s.debits_total} ≠ ${debits}, the sum of the debit lines`;
  if (balance !== s.closing_balance)
    return `closing_balance ${s.closing_balance} ≠ ${balance} = opening_balance + credits_total − debits_total`;
  const [first, last] = [s.lines?.[0], s.lines?.[s.lines.length - 1]];
  if ((first?.position ?? null) !== s.positions?.first || (last?.position ?? null) !== s.positions?.last)
    return 'positions are not those of the first and last lines';
  return null;
}

/** A line id is `ste_` + the account's ULID + its event's revision in the account stream (10 digits). */
const LINE_ID = /^ste_([0-9A-HJKMNP-TV-Z]{26})(\d{10})$/;

function statement(file, options, say) {
  const s = file.data ?? file;
  const problem = statementLinesProblem(s);
  if (problem) return problem;
  const lines = s.lines ?? [];
  const period = `${s.account_id} from ${new Date(s.period?.from).toISOString()} to ${new Date(s.period?.to).toISOString()}`;
  if (!lines.length)
    return {
      ok: `the statement of ${period} has no lines; its balance ${s.closing_balance} is not tied to the log by a proof`,
    };
  if (!s.proof || !s.checkpoint)
    return 'the statement carries no checkpoint yet (none covered its last line when it was made): fetch it again';
  if (JSON.stringify(s.proof.checkpoint) !== JSON.stringify(s.checkpoint))
    return 'the proof is not against the statement’s checkpoint';
  const last = lines[lines.length - 1];
  const id = LINE_ID.exec(String(last.id));
  const leaf = s.proof.leaf ?? {};
  const mismatch = [
    (!id || `acc_${id[1]}` !== s.account_id) && `the last line ${last.id} is not of account ${s.account_id}`,
    leaf.stream_id !== `account-${s.account_id}` && `the proof's stream ${leaf.stream_id} is not the account's`,
    id &&
      leaf.revision !== Number(id[2]) &&
      `the proof's revision ${leaf.revision} is not the last line's ${Number(id[2])}`,
    leaf.position !== s.positions.last &&
      `the proof's position ${leaf.position} is not positions.last ${s.positions.last}`,
  ].filter(Boolean);
  if (mismatch.length) return `the proof is not of the statement's last line: ${mismatch.join(', ')}`;
  const proved = inclusion(s.proof, options, say);
  if (typeof proved === 'string') return proved;
  return {
    ok: `the ${lines.length} line(s) of ${period} add up from ${s.opening_balance} to ${s.closing_balance}, and the last (position ${leaf.position}) is leaf ${s.proof.leaf_index} of the checkpoint of ${describe(s.checkpoint)}`,
  };
}

function parse(argv) {
  const options = { mode: 'inclusion', file: null, event: null, publicKey: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Usage(`${arg} needs a file`);
      return argv[++i];
    };
    if (arg === '--event') options.event = value();
    else if (arg === '--public-key') options.publicKey = value();
    else if (arg === '--consistency') [options.mode, options.file] = ['consistency', value()];
    else if (arg === '--checkpoints') [options.mode, options.file] = ['checkpoints', value()];
    else if (arg === '--statement') [options.mode, options.file] = ['statement', value()];
    else if (arg.startsWith('-')) throw new Usage(`unknown option ${arg}`);
    else if (!options.file) options.file = arg;
    else throw new Usage(`unexpected argument ${arg}`);
  }
  if (!options.file) throw new Usage('which file?');
  return options;
}

function main() {
  const say = (line) => process.stderr.write(`${line}\n`);
  let result;
  try {
    const options = parse(process.argv.slice(2));
    const file = JSON.parse(readFileSync(options.file, 'utf8'));
    result = { inclusion, consistency, checkpoints, statement }[options.mode](file, options, say);
  } catch (error) {
    if (!(error instanceof Usage || error instanceof SyntaxError || error.code === 'ENOENT')) {
      process.stdout.write(`FAILED: ${error.message}\n`);
      return 1;
    }
    say(`verify-proof: ${error.message}`);
    say('usage: node examples/verify-proof.mjs proof.json [--event event.json] [--public-key key.pem]');
    say('       node examples/verify-proof.mjs --consistency consistency.json [--public-key key.pem]');
    say('       node examples/verify-proof.mjs --checkpoints checkpoints.json [--public-key key.pem]');
    say('       node examples/verify-proof.mjs --statement statement.json [--public-key key.pem]');
    return 2;
  }
  if (typeof result === 'string') {
    process.stdout.write(`FAILED: ${result}\n`);
    return 1;
  }
  process.stdout.write(`OK: ${result.ok}\n`);
  return 0;
}

process.exitCode = main();
