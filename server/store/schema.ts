import type { Generated, Kysely, Transaction } from 'kysely';

/** Timestamps are ISO 8601 UTC text (`toISOString()`), so they sort and compare as text on both databases. */
type Instant = string;

export interface ClientsTable {
  id: string;
  name: string;
  secret_hash: string;
  public_key: string;
  created_at: Instant;
}

export type MerchantStatus = 'invited' | 'pending' | 'completed';

export interface MerchantsTable {
  id: string;
  client_id: string;
  company_id: string | null;
  status: MerchantStatus;
  business_name: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  website: string;
  /** SHA-256 of the merchant key: the key itself is shown once and never stored. */
  merchant_key_hash: string | null;
  public_key: string;
  /** The onboarding application as JSON, without SSN or full account number (docs/security.md). */
  application: string | null;
  created_at: Instant;
  submitted_at: Instant | null;
  approved_at: Instant | null;
}

export interface OnboardingSessionsTable {
  token_hash: string;
  client_id: string;
  expires_at: Instant;
  used_at: Instant | null;
}

export interface OnboardingLinksTable {
  token_hash: string;
  merchant_id: string;
  expires_at: Instant;
  used_at: Instant | null;
}

export interface CustomersTable {
  id: string;
  merchant_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  created_at: Instant;
  /** Insertion order, so pages stay stable when two customers share a timestamp. */
  seq: Generated<number>;
}

/** The outbox: every event is written in the transaction of the change that causes it. */
export interface EventsTable {
  id: string;
  client_id: string;
  event_type: string;
  /** The event's `data` object as JSON text. */
  data: string;
  created_at: Instant;
  seq: Generated<number>;
}

export interface Database {
  clients: ClientsTable;
  merchants: MerchantsTable;
  onboarding_sessions: OnboardingSessionsTable;
  onboarding_links: OnboardingLinksTable;
  customers: CustomersTable;
  events: EventsTable;
}

export type Executor = Kysely<Database> | Transaction<Database>;
export type Dialect = 'sqlite' | 'postgres';
