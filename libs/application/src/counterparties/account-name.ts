import { createHash } from 'node:crypto';

const FIRST = [
  'Ada',
  'Kwame',
  'Amara',
  'Thabo',
  'Priya',
  'Wanjiru',
  'Chidi',
  'Lerato',
  'Arjun',
  'Esi',
  'Tunde',
  'Naledi',
  'Olivia',
  'James',
  'Mei',
  'Lucas',
];
const LAST = [
  'Okafor',
  'Mensah',
  'Otieno',
  'Nkosi',
  'Sharma',
  'Kamau',
  'Adeyemi',
  'Dlamini',
  'Patel',
  'Boateng',
  'Balogun',
  'Mokoena',
  'Smith',
  'Johnson',
  'Chen',
  'Silva',
];

/**
 * The sandbox has no bank to ask, so the name on an account is derived from its number
 * (decisions §5): the same number always answers the same name.
 */
export function sandboxAccountName(accountNumber: string): string {
  const digest = createHash('sha256').update(accountNumber).digest();
  return `${FIRST[digest[0] % FIRST.length]} ${LAST[digest[1] % LAST.length]}`;
}
