import type { Actor } from './actor';
import { visibility } from './tenancy';

const actor = (over: Partial<Actor> = {}): Actor => ({
  kind: 'api_key',
  organizationId: 'org_a',
  mode: 'sandbox',
  id: 'key_1',
  ...over,
});

describe('visibility: tenancy by organization, mode and entity', () => {
  it('shows a stream of the same organization and mode', () => {
    expect(visibility({ organization_id: 'org_a', mode: 'sandbox' }, actor())).toBe('visible');
    expect(visibility({ organization_id: 'org_a', mode: 'live' }, actor({ mode: 'live' }))).toBe('visible');
  });

  it("hides another organization's stream and the other mode's as not found", () => {
    expect(visibility({ organization_id: 'org_b', mode: 'sandbox' }, actor())).toBe('not_found');
    expect(visibility({ organization_id: 'org_a', mode: 'live' }, actor())).toBe('not_found');
    expect(visibility({ organization_id: 'org_a', mode: 'sandbox' }, actor({ mode: 'live' }))).toBe('not_found');
  });

  it('reads a stream written before modes as sandbox', () => {
    expect(visibility({ organization_id: 'org_a' }, actor())).toBe('visible');
    expect(visibility({ organization_id: 'org_a' }, actor({ mode: 'live' }))).toBe('not_found');
  });

  it("forbids another entity's resource to an entity token, after the world check", () => {
    const token = actor({ kind: 'entity_token', entityId: 'ent_1' });
    expect(visibility({ organization_id: 'org_a', mode: 'sandbox', entity_id: 'ent_2' }, token)).toBe('forbidden');
    expect(visibility({ organization_id: 'org_a', mode: 'live', entity_id: 'ent_2' }, token)).toBe('not_found');
    expect(visibility({ organization_id: 'org_a', mode: 'sandbox', entity_id: 'ent_1' }, token)).toBe('visible');
  });
});
