/** The API's resources, as far as the dashboard reads them (docs/api). */
export interface ApiKey {
  id: string;
  organization_id: string;
  name: string | null;
  mode: 'sandbox' | 'live';
  last4: string;
}

export interface Entity {
  id: string;
  type: string;
  status: string;
  status_reason: string | null;
  name: string | null;
  profile: Record<string, unknown> | null;
  created: number;
  updated: number;
}

export interface Balance {
  available: number;
  current: number;
}

export interface Account {
  id: string;
  entity_id: string;
  type: string;
  currency: string;
  display_name: string | null;
  balance: Balance;
  created: number;
  updated: number;
}

export interface StatementEntry {
  id: string;
  type: string;
  amount: number;
  fee: number | null;
  transfer_id: string | null;
  transaction_id: string | null;
  payment_intent_id: string | null;
  balance_after: Balance;
  created: number;
}

export interface LedgerTotals {
  debits_posted: number;
  credits_posted: number;
  debits_pending: number;
  credits_pending: number;
}

export interface Ledger {
  position: number;
  currencies: (LedgerTotals & { currency: string })[];
  accounts: (LedgerTotals & { id: string; kind: string; currency: string })[];
}

export interface Transfer {
  id: string;
  account_id: string;
  entity_id: string;
  counterparty_id: string | null;
  currency: string;
  amount: number;
  fee: number;
  status: string;
  status_reason: string | null;
  payment_type: string;
  description: string | null;
  unique_reference: string;
  created: number;
  updated: number;
}

export interface PublicEvent {
  id: string;
  type: string;
  resource_type: string;
  resource_id: string;
  entity_id: string | null;
  position: number;
  revision: number;
  data: Record<string, unknown>;
  metadata: { actor: string | null; request_id: string | null; hash: string | null };
  created: number;
}

export interface PaymentIntent {
  id: string;
  currency: string;
  amount: number;
  reference: string;
  description: string | null;
  status: string;
  status_reason: string | null;
  entity_id: string;
  account_id: string;
  created: number;
  updated: number;
}

export interface Card {
  id: string;
  name: string;
  status: string;
  type: string;
  last_four: string;
  account_id: string;
  created: number;
}

export interface CardTransaction {
  id: string;
  amount: number;
  currency: string;
  status: string;
  status_reason: string | null;
  narration: string | null;
  type: string;
  created: number;
  /** Decisions §16: who decided (absent on transactions older than it: the platform). */
  authorization?: {
    source: 'platform' | 'endpoint' | 'fallback';
    endpoint_status: number | null;
    latency_ms: number | null;
    reason: string | null;
  };
}

export interface Webhook {
  id: string;
  entity_id: string;
  url: string;
  status: string;
  /** Why the platform turned it inactive (decisions §15), e.g. `failing`; null otherwise. */
  disabled_reason: string | null;
  enabled_events: Record<string, unknown>;
  stats: {
    deliveries_total: number;
    deliveries_succeeded: number;
    deliveries_failed: number;
    last_delivery_at: number | null;
    last_response_status: number | null;
  };
  created: number;
}

export interface WebhookLog {
  id: string;
  webhook_id: string;
  entity_id: string;
  event_id: string;
  event: string;
  url: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  request: { method: string; headers: Record<string, string>; body: string };
  response: { status_code: number; headers: Record<string, string>; body: string } | null;
  error: string | null;
  duration_ms: number | null;
  created: number;
}

export interface Counterparty {
  id: string;
  entity_id: string;
  type: 'individual' | 'business';
  nickname: string | null;
  status: string;
  profile: Record<string, unknown>;
  created: number;
  updated: number;
}

/** A key as the API lists it: never its secret (decisions §1). */
export interface ApiKeySummary extends ApiKey {
  status: string;
  created: number;
  updated: number;
}
