import { invalid, isDomainError, rule, type DomainError } from '../../shared';
import type { Officer, OfficerPerson } from './entity.events';
import { mergeSection } from './merge';

/** One item of `business_officers`: add (with `person_id` or `person`), update or remove (by `id`). */
export interface OfficerChange {
  readonly action?: 'add' | 'update' | 'remove';
  readonly id?: string;
  readonly person_id?: string;
  readonly job_title?: string;
  readonly is_control_person?: boolean;
  readonly is_beneficial_owner?: boolean;
  readonly ownership_percentage?: number;
  readonly person?: OfficerPerson;
}

export interface OfficerOutcome {
  readonly officers: readonly Officer[];
  readonly added: string[];
  readonly updated: string[];
  readonly removed: string[];
}

/**
 * Applies the items in order. `newIds[i]` is the id for item i when it adds an officer (ids come
 * in on the command). Beneficial owners may not own more than 100% together.
 */
export function applyOfficerChanges(
  current: readonly Officer[],
  items: readonly OfficerChange[],
  newIds: readonly string[],
): OfficerOutcome | DomainError {
  let officers = [...current];
  const outcome = { added: [] as string[], updated: [] as string[], removed: [] as string[] };
  for (const [i, item] of items.entries()) {
    const field = `business_officers[${i}]`;
    const action = item.action ?? (item.id ? 'update' : 'add');
    if (action === 'add') {
      const added = newOfficer(item, newIds[i], field, officers);
      if (isDomainError(added)) return added;
      officers.push(added);
      outcome.added.push(added.id);
      continue;
    }
    const index = officers.findIndex((o) => o.id === item.id);
    if (!item.id) return invalid(`${field}.id`, `id is required to ${action} an officer`);
    if (index < 0) return invalid(`${field}.id`, `no officer ${item.id} on this business`);
    if (action === 'remove') {
      officers = officers.filter((o) => o.id !== item.id);
      outcome.removed.push(item.id);
      continue;
    }
    if (item.person_id !== undefined && item.person_id !== officers[index].person_id) {
      return invalid(
        `${field}.person_id`,
        'the linked person of an officer cannot be changed; remove it and add another',
      );
    }
    const merged = mergeSection<Officer>(officers[index], { ...item, action: undefined, id: undefined }, '');
    if (merged.changed.length) {
      officers[index] = merged.value;
      outcome.updated.push(item.id);
    }
  }
  const owned = officers.reduce((sum, o) => sum + (o.is_beneficial_owner ? (o.ownership_percentage ?? 0) : 0), 0);
  if (owned > 100)
    return rule('ownership_exceeds_total', `Beneficial owners would own ${owned}% together, more than 100%`);
  return { officers, ...outcome };
}

function newOfficer(
  item: OfficerChange,
  id: string | undefined,
  field: string,
  officers: readonly Officer[],
): Officer | DomainError {
  if (item.id) return invalid(`${field}.id`, 'id must be omitted when adding an officer');
  if (!id) return invalid(field, 'no id was allocated for this officer');
  if (!item.person_id && !(item.person?.first_name && item.person?.last_name)) {
    return invalid(`${field}.person_id`, 'adding an officer needs person_id, or person with first_name and last_name');
  }
  if (item.person_id && officers.some((o) => o.person_id === item.person_id)) {
    return invalid(`${field}.person_id`, `${item.person_id} is already an officer of this business`);
  }
  return {
    id,
    person_id: item.person_id ?? null,
    job_title: item.job_title ?? null,
    is_control_person: item.is_control_person ?? false,
    is_beneficial_owner: item.is_beneficial_owner ?? false,
    ownership_percentage: item.ownership_percentage ?? null,
    person: item.person ?? null,
  };
}
