import {
  bool,
  constant,
  country2,
  int,
  isoDateTime,
  ms,
  nullable,
  num,
  obj,
  oneOfValues,
  ref,
  str,
  stringMap,
  successEnvelope,
  arrayOf,
  type Infer,
  type Schema,
} from '../schema-dsl';

/**
 * The entity resource and its forms: the OpenAPI components `IndividualEntity`, `BusinessEntity`,
 * `QuickStartEntity`, `EntitySummary` and the two update answers, and the types their presenters
 * (entity.presenter.ts, entity-update.presenter.ts) return.
 */

const ENTITY_STATUSES = ['pending', 'approved', 'rejected', 'suspended'] as const;

const address = obj(
  {
    line_1: str(),
    line_2: str(),
    line_3: str(),
    city: str(),
    state: str(),
    postal_code: str(),
    country_code: country2(),
    meta: stringMap(),
  },
  { optional: ['line_2', 'line_3', 'state', 'postal_code', 'meta'] },
);
/** An address of an officer: any subset (decisions: business update). */
const partialAddress = obj(
  { ...(address.properties as Record<string, Schema>) },
  { optional: Object.keys(address.properties as object) },
);

const identityDocument = obj(
  {
    type: str(),
    number: str(),
    issue_date: str(undefined, { format: 'date' }),
    expiry_date: str(undefined, { format: 'date' }),
    issuing_country: country2(),
    issuing_authority: str(),
    document_id: str(),
    type_specific: obj({ id_subtype: str() }, { optional: ['id_subtype'] }),
  },
  {
    optional: [
      'type',
      'number',
      'issue_date',
      'expiry_date',
      'issuing_country',
      'issuing_authority',
      'document_id',
      'type_specific',
    ],
  },
);
const identification = obj(
  {
    document: identityDocument,
    proof_of_address: obj(
      { type: oneOfValues(['utility', 'bank_statement']), document_id: str() },
      { optional: ['type', 'document_id'] },
    ),
  },
  { optional: ['document', 'proof_of_address'] },
);

const individualProfile = obj(
  {
    first_name: str(),
    last_name: str(),
    email: str(),
    date_of_birth: nullable(str('YYYY-MM-DD; null for quick-start entities', { format: 'date' })),
    country_of_residence: country2(),
    middle_name: str(),
    nationality: country2(),
    gender: str(),
    phonenumber: str('E.164'),
  },
  { optional: ['middle_name', 'nationality', 'gender', 'phonenumber'] },
);
const businessProfileFields = {
  legal_name: str(),
  trading_name: nullable(str()),
  email: str(),
  business_type: oneOfValues(['llc', 'corporation', 'partnership', 'sole_proprietorship']),
  country_of_incorporation: country2(),
  website: str(),
  description: str(),
  phonenumber: str('E.164'),
  registration_number: str(),
  incorporation_meta: obj({ year: int(), month: int(), state: str() }, { optional: ['year', 'month', 'state'] }),
};
const businessOptional = [
  'website',
  'description',
  'phonenumber',
  'registration_number',
  'incorporation_meta',
] as const;

const officer = obj({
  id: str('off_…'),
  person_id: nullable(str('per_… of an individual entity of the organization')),
  job_title: nullable(str()),
  is_control_person: bool(),
  is_beneficial_owner: bool(),
  ownership_percentage: nullable(num()),
  person: nullable(
    obj(
      {
        first_name: str(),
        last_name: str(),
        middle_name: str(),
        date_of_birth: str(),
        email: str(),
        nationality: str(),
        gender: str(),
        meta: stringMap(),
        identification,
        address: partialAddress,
      },
      {
        optional: [
          'first_name',
          'last_name',
          'middle_name',
          'date_of_birth',
          'email',
          'nationality',
          'gender',
          'meta',
          'identification',
          'address',
        ],
      },
    ),
  ),
});

const entityDocument = obj({
  id: str('doc_…'),
  key: oneOfValues(['identity', 'address']),
  status: constant('uploaded'),
  created: ms(),
});
const entityCommon = {
  id: str('ent_…'),
  object: constant('entity'),
  status: oneOfValues(ENTITY_STATUSES),
  status_reason: nullable(str('Why it was rejected')),
  meta: stringMap(),
  name: nullable(str()),
  parent_entity: nullable(str('ent_…')),
  documents: arrayOf(entityDocument),
  submitted: nullable(ms('When it was submitted for review')),
  created: ms(),
  updated: ms(),
};

export const individualEntitySchema = obj(
  {
    ...entityCommon,
    type: constant('individual'),
    person_id: str('per_…: links KYC documents'),
    profile: individualProfile,
    address: nullable(address),
  },
  { description: 'An individual entity' },
);
export type IndividualEntityBody = Infer<typeof individualEntitySchema>;

export const businessEntitySchema = obj(
  {
    ...entityCommon,
    type: constant('business'),
    profile: obj({ ...businessProfileFields, registered_address: nullable(address) }, { optional: businessOptional }),
    operating_address: nullable(address),
  },
  { description: 'A business entity' },
);
export type BusinessEntityBody = Infer<typeof businessEntitySchema>;

export const quickStartEntitySchema = obj(
  {
    id: str('ent_…'),
    object: constant('entity'),
    type: constant('individual'),
    first_name: str(),
    last_name: str(),
    email: str(),
    country: country2(),
    status: oneOfValues(
      ['active', 'pending'],
      'active: approved at once (sandbox); pending: a live entity awaiting review',
    ),
    person_id: str(),
    created_at: isoDateTime(),
  },
  { description: 'The quick-start entity, flat (spec)' },
);
export type QuickStartEntityBody = Infer<typeof quickStartEntitySchema>;

export const entitySummarySchema = obj({
  id: str(),
  type: oneOfValues(['individual', 'business']),
  status: oneOfValues(ENTITY_STATUSES),
  name: nullable(str()),
  is_root: bool(),
  parent_entity: nullable(str()),
  parent_relationship: nullable(str()),
  business_id: nullable(str()),
  user_id: nullable(str()),
  creation_context: oneOfValues(['api', 'quick_start']),
  created: ms(),
  updated: ms(),
});
export type EntitySummaryBody = Infer<typeof entitySummarySchema>;

/** The groups of `changes_applied`, each always present (empty when nothing in it changed). */
export const INDIVIDUAL_UPDATE_GROUPS = ['entity_fields', 'person_fields', 'address_fields', 'identification_fields'];
export const BUSINESS_UPDATE_GROUPS = [
  'meta_fields',
  'entity_fields',
  'address_fields',
  'officers_added',
  'business_fields',
  'officers_removed',
  'officers_updated',
];

export const individualEntityUpdateSchema = successEnvelope(
  obj({
    changes_applied: obj(Object.fromEntries(INDIVIDUAL_UPDATE_GROUPS.map((g) => [g, arrayOf(str())]))),
    address: nullable(address),
    entity: ref('EntitySummary'),
    person: obj(
      { person_id: str(), ...(individualProfile.properties as Record<string, Schema>) },
      { optional: ['middle_name', 'nationality', 'gender', 'phonenumber'] },
    ),
    identification: obj({
      document: nullable(identityDocument),
      verification_status: oneOfValues(['not_started', 'pending', 'verified', 'rejected']),
      proof_of_address: obj({
        type: nullable(oneOfValues(['utility', 'bank_statement'])),
        document_id: nullable(str()),
        verification_status: oneOfValues(['not_started', 'pending', 'verified', 'rejected']),
      }),
    }),
  }),
  'The update of an individual entity',
);
export type IndividualEntityUpdateBody = Infer<typeof individualEntityUpdateSchema>;

export const businessEntityUpdateSchema = successEnvelope(
  obj({
    changes_applied: obj(Object.fromEntries(BUSINESS_UPDATE_GROUPS.map((g) => [g, arrayOf(str())]))),
    address: nullable(address),
    operating_address: nullable(address),
    entity: ref('EntitySummary'),
    business: obj(
      {
        legal_name: str(),
        trade_name: nullable(str()),
        email: str(),
        type: oneOfValues(['llc', 'corporation', 'partnership', 'sole_proprietorship']),
        website: str(),
        description: str(),
        phonenumber: str(),
        registration_number: str(),
        incorporation_meta: obj(
          { year: int(), month: int(), state: str(), country: country2() },
          { optional: ['year', 'month', 'state'] },
        ),
      },
      { optional: businessOptional.filter((f) => f !== 'incorporation_meta') },
    ),
    business_meta: stringMap(),
    business_officers: arrayOf(officer),
  }),
  'The update of a business entity',
);
export type BusinessEntityUpdateBody = Infer<typeof businessEntityUpdateSchema>;
