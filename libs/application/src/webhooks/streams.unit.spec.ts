import { derivedUlid } from './streams';

describe('derivedUlid', () => {
  // Ids already stored (public event ids, delivery ids) were derived with these: the derivation never changes.
  it('gives the ids it always gave: the seed ULID keeps its time, the rest is a hash of the seed and parts', () => {
    expect(derivedUlid('01M8E6CTK8T5ZMAN13NBHC2VHN', 'accounts.updated')).toBe('01M8E6CTK898FSWCTG9AAPNFS6');
    expect(derivedUlid('01M8E6CTK8T5ZMAN13NBHC2VHN', 'wh_1', 'x')).toBe('01M8E6CTK8NZKB1G2NXZTZMEEH');
  });
});
