export const entityStream = (entityId: string) => `entity-${entityId}`;

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
export const ENTITY_ID = new RegExp(`^ent_${ULID}$`);
export const PERSON_ID = new RegExp(`^per_${ULID}$`);

/** A person id shares its entity's ULID, so the entity is found without an index. */
export const entityIdOfPerson = (personId: string): string | null =>
  PERSON_ID.test(personId) ? `ent_${personId.slice(4)}` : null;
export const personIdOf = (entityId: string) => `per_${entityId.slice(4)}`;
