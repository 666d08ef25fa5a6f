/** Entity events: past-tense facts on stream `entity-<id>`, plain JSON, never renamed once stored. */

export type EntityType = 'individual' | 'business';
export type BusinessType = 'llc' | 'corporation' | 'partnership' | 'sole_proprietorship';
export type DocumentKey = 'identity' | 'address';
export type ReviewDecision = 'approved' | 'rejected';
/** Who decided: the quick start, the automatic sandbox review, or the sandbox review endpoint. */
/** Who decided: the sandbox's quick start, automatic or manual review, or the operator (live and sandbox). */
export type Reviewer = 'quick_start' | 'auto_review' | 'sandbox_review' | 'operator';

export interface Address {
  readonly line_1: string;
  readonly line_2?: string;
  readonly line_3?: string;
  readonly city: string;
  readonly state?: string;
  readonly postal_code?: string;
  readonly country_code: string;
  readonly meta?: Readonly<Record<string, string>>;
}

export interface IndividualProfile {
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  /** Null only for quick-start entities, which are created without one. */
  readonly date_of_birth: string | null;
  readonly country_of_residence: string;
  readonly middle_name?: string;
  readonly nationality?: string;
  readonly gender?: string;
  readonly phonenumber?: string;
}

export interface BusinessProfile {
  readonly legal_name: string;
  readonly trading_name: string | null;
  readonly email: string;
  readonly business_type: BusinessType;
  readonly country_of_incorporation: string;
  readonly website?: string;
  readonly description?: string;
  readonly phonenumber?: string;
  readonly registration_number?: string;
  readonly incorporation_meta?: { readonly year?: number; readonly month?: number; readonly state?: string };
}

export type Profile = IndividualProfile | BusinessProfile;

/** Identity document details and proof of address, as declared by the client. */
export interface Identification {
  readonly document?: {
    readonly type?: string;
    readonly number?: string;
    readonly issue_date?: string;
    readonly expiry_date?: string;
    readonly issuing_country?: string;
    readonly issuing_authority?: string;
    readonly document_id?: string;
    readonly type_specific?: { readonly id_subtype?: string };
  };
  readonly proof_of_address?: { readonly type?: 'utility' | 'bank_statement'; readonly document_id?: string };
}

export interface OfficerPerson {
  readonly first_name?: string;
  readonly last_name?: string;
  readonly middle_name?: string;
  readonly date_of_birth?: string;
  readonly email?: string;
  readonly nationality?: string;
  readonly gender?: string;
  readonly meta?: Readonly<Record<string, string>>;
  readonly identification?: Identification;
  readonly address?: Partial<Address>;
}

export interface Officer {
  readonly id: string;
  /** Set when the officer is an existing individual entity of the same organization. */
  readonly person_id: string | null;
  readonly job_title: string | null;
  readonly is_control_person: boolean;
  readonly is_beneficial_owner: boolean;
  readonly ownership_percentage: number | null;
  readonly person: OfficerPerson | null;
}

/** A stored file's fingerprint: the bytes live in the blob store, never in the log. */
export interface DocumentRecord {
  readonly document_id: string;
  readonly key: DocumentKey;
  readonly person_id: string;
  readonly content_type: 'application/pdf' | 'image/jpeg' | 'image/png';
  readonly size: number;
  readonly sha256: string;
  readonly filename: string | null;
  readonly uploaded: number;
}

/** The new value of every section an update changed (whole sections, so evolve only assigns). */
export interface EntityChanges {
  readonly name?: string | null;
  readonly parent_entity?: string | null;
  readonly parent_relationship?: string | null;
  readonly profile?: Profile;
  readonly address?: Address | null;
  readonly operating_address?: Address | null;
  readonly identification?: Identification;
  readonly meta?: Readonly<Record<string, string>>;
  readonly officers?: readonly Officer[];
}

/** Names of the fields an update changed, grouped as the update responses report them. */
export type ChangesApplied = Readonly<Record<string, readonly string[]>>;

export type EntityEvent =
  | {
      readonly type: 'EntityCreated';
      readonly data: {
        readonly entity_id: string;
        readonly type: EntityType;
        /** `per_<same ULID>` for individuals, so a person id maps to its entity without an index. */
        readonly person_id: string | null;
        readonly profile: Profile;
        readonly address: Address | null;
        readonly meta: Readonly<Record<string, string>>;
        readonly mode: 'sandbox' | 'live';
        readonly creation_context: 'api' | 'quick_start';
        readonly created: number;
      };
    }
  | {
      readonly type: 'EntityUpdated';
      readonly data: {
        readonly entity_id: string;
        readonly changes: EntityChanges;
        readonly changes_applied: ChangesApplied;
        readonly updated: number;
      };
    }
  | { readonly type: 'DocumentUploaded'; readonly data: DocumentRecord & { readonly entity_id: string } }
  | { readonly type: 'OnboardingSubmitted'; readonly data: { readonly entity_id: string; readonly submitted: number } }
  | {
      readonly type: 'EntityApproved';
      readonly data: {
        readonly entity_id: string;
        readonly reviewer: Reviewer;
        readonly reason: string | null;
        readonly approved: number;
      };
    }
  | {
      readonly type: 'EntityRejected';
      readonly data: {
        readonly entity_id: string;
        readonly reviewer: Reviewer;
        readonly reason: string;
        readonly rejected: number;
      };
    };

export const ENTITY_EVENT_TYPES: readonly EntityEvent['type'][] = [
  'EntityCreated',
  'EntityUpdated',
  'DocumentUploaded',
  'OnboardingSubmitted',
  'EntityApproved',
  'EntityRejected',
];
