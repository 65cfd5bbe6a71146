import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, DeliveryStatus, Dialect, Executor } from './schema.ts';
import { newId } from '../platform/secrets.ts';
import { holdsSecrets, redactSecrets } from '../domain/event-secrets.ts';
import { boundOf, keyOf, pageOf, type ListingKey, type Page, type PageStart } from './pages.ts';
import { isoInstant } from '../domain/instants.ts';

export interface StoredEvent {
  id: string;
  client_id: string;
  event_type: string;
  data: Record<string, unknown>;
  created_at: string;
}

export interface EventDelivery extends StoredEvent {
  delivery_status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  delivered_at: string | null;
}

/** A claimed event: its payload as stored, so the body is sent exactly as written. */
export interface ClaimedEvent {
  id: string;
  client_id: string;
  event_type: string;
  data: string;
  attempts: number;
  claimed_until: string;
}

/** When a due event may be claimed: `now` by the service clock, `claimAt` and `claimedUntil` by wall time. */
export interface DueWindow {
  now: string;
  claimAt: string;
  claimedUntil: string;
}

/** Pending, due by the service clock, and held by no dispatcher now. */
const isDue = ({ now, claimAt }: Pick<DueWindow, 'now' | 'claimAt'>) => (eb: ExpressionBuilder<Database, 'events'>) =>
  eb.and([eb('delivery_status', '=', 'pending'), eb('next_attempt_at', '<=', now), eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', claimAt)])]);

const clientsWithDueEventsQuery = (db: Executor, now: string, claimAt: string) =>
  db
    .selectFrom('webhook_endpoints')
    .select('client_id')
    .where('disabled_at', 'is', null)
    .where((eb) => eb.exists(eb.selectFrom('events').select('seq').whereRef('events.client_id', '=', 'webhook_endpoints.client_id').where(isDue({ now, claimAt }))));

/** An outbox row, for a change to write with its rows (changes.ts); `add` inserts one. */
export function eventRow(clientId: string, eventType: string, data: Record<string, unknown>, now: Date) {
  return { id: newId('evt_'), client_id: clientId, event_type: eventType, data: JSON.stringify(data), created_at: isoInstant(now), holds_secret: holdsSecrets(eventType) ? 1 : 0 };
}

/** Counts the events a store (and its transactions) wrote, so the dispatcher is woken only when there may be something new. */
export class OutboxCounter {
  count = 0;
}

const DELIVERY_COLUMNS = ['id', 'client_id', 'event_type', 'data', 'created_at', 'delivery_status', 'attempts', 'next_attempt_at', 'delivered_at'] as const;
const parse = <T extends { data: string }>(row: T) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> });

/** The outbox. Add events through a transaction's store so they commit with the change that causes them. */
export class EventRepository {
  private readonly db: Executor;
  private readonly dialect: Dialect;
  readonly written: OutboxCounter;

  constructor(
    db: Executor,
    dialect: Dialect,
    written: OutboxCounter,
  ) {
    this.db = db;
    this.dialect = dialect;
    this.written = written;
  }

  async add(clientId: string, eventType: string, data: Record<string, unknown>, now: Date): Promise<string> {
    this.written.count++;
    const row = eventRow(clientId, eventType, data, now);
    await this.db.insertInto('events').values(row).execute();
    return row.id;
  }

  /** Masks the secret fields of an event for good (it was delivered or given up, or waited too long). */
  async redactSecrets(id: string): Promise<void> {
    const row = await this.db.selectFrom('events').select(['event_type', 'data']).where('id', '=', id).where('holds_secret', '=', 1).executeTakeFirst();
    if (!row) return;
    const data = JSON.stringify(redactSecrets(row.event_type, JSON.parse(row.data) as Record<string, unknown>));
    await this.db.updateTable('events').set({ data, holds_secret: 0 }).where('id', '=', id).execute();
  }

  /** Events created before `cutoff` that still hold a secret. */
  async holdingSecretsSince(cutoff: string, limit: number): Promise<string[]> {
    // A literal: compared with a parameter, a partial index's term makes SQLite prepare the statement again at every
    // call (test/store/query-plans.test.ts).
    const rows = await this.db.selectFrom('events').select('id').where('holds_secret', '=', sql.lit(1)).where('created_at', '<', cutoff).limit(limit).execute();
    return rows.map((row) => row.id);
  }

  async listForClient(clientId: string): Promise<StoredEvent[]> {
    const rows = await this.db
      .selectFrom('events')
      .select(['id', 'client_id', 'event_type', 'data', 'created_at'])
      .where('client_id', '=', clientId)
      .orderBy('seq')
      .execute();
    return rows.map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
  }

  /**
   * The clients with an enabled endpoint (but `excludeClients`) that have at least one due event nobody holds.
   * Due-ness follows the service clock (`now`, which the sandbox moves); claims are about processes and follow wall
   * time (`claimAt`, `claimedUntil`), so moving the sandbox clock never frees a delivery under way.
   */
  async clientsWithDueEvents(due: DueWindow, excludeClients: readonly string[] = []): Promise<string[]> {
    let query = clientsWithDueEventsQuery(this.db, due.now, due.claimAt);
    if (excludeClients.length > 0) query = query.where('client_id', 'not in', [...excludeClients]);
    const rows = await query.execute();
    return rows.map((row) => row.client_id);
  }

  /**
   * Takes up to `limit` due events of one client, earliest due first (then oldest), and holds them until `claimedUntil`. On PostgreSQL,
   * `FOR UPDATE SKIP LOCKED` lets several service processes claim side by side without taking the same event;
   * SQLite has one writer.
   */
  async claimDue(due: DueWindow, clientId: string, limit: number): Promise<ClaimedEvent[]> {
    // Straight off the (client_id, delivery_status, next_attempt_at, seq) index, in its order: no sort, however many wait.
    let picked = this.db
      .selectFrom('events')
      .select('seq')
      .where('client_id', '=', clientId)
      .where(isDue(due))
      .orderBy('next_attempt_at')
      .orderBy('seq')
      .limit(limit);
    if (this.dialect === 'postgres') picked = picked.forUpdate().skipLocked();
    return this.db
      .updateTable('events')
      .set({ claimed_until: due.claimedUntil })
      .where('seq', 'in', picked)
      .returning(['id', 'client_id', 'event_type', 'data', 'attempts', 'claimed_until'])
      .execute() as Promise<ClaimedEvent[]>;
  }

  /**
   * Records the outcome of an attempt, if this dispatcher still holds the claim it was made under. A final outcome
   * (delivered or failed) also masks the event's secrets in the same statement: nothing will send them again.
   */
  async settleAttempt(
    event: Pick<ClaimedEvent, 'id' | 'event_type' | 'data'>,
    claimedUntil: string,
    outcome: { status: DeliveryStatus; attempts: number; nextAttemptAt: string; deliveredAt: string | null },
  ): Promise<boolean> {
    const final = outcome.status !== 'pending' && holdsSecrets(event.event_type);
    const redacted = final ? { data: JSON.stringify(redactSecrets(event.event_type, JSON.parse(event.data) as Record<string, unknown>)), holds_secret: 0 } : {};
    const result = await this.db
      .updateTable('events')
      .set({ delivery_status: outcome.status, attempts: outcome.attempts, next_attempt_at: outcome.nextAttemptAt, delivered_at: outcome.deliveredAt, claimed_until: null, ...redacted })
      .where('id', '=', event.id)
      .where('claimed_until', '=', claimedUntil)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Gives an event back unattempted (its endpoint was disabled while it waited). */
  async release(id: string, claimedUntil: string): Promise<void> {
    await this.db.updateTable('events').set({ claimed_until: null }).where('id', '=', id).where('claimed_until', '=', claimedUntil).execute();
  }

  async findForClient(clientId: string, id: string): Promise<EventDelivery | undefined> {
    const row = await this.db.selectFrom('events').select(DELIVERY_COLUMNS).where('client_id', '=', clientId).where('id', '=', id).executeTakeFirst();
    return row && parse(row);
  }

  /**
   * The delivery log, newest first (by `created_at`, then insertion), through `events_by_client` or, for one status, `events_by_client_status`; the
   * total from `event_counts` (migration 012). A deep page number walks the index's keys to its first row.
   */
  async deliveries(clientId: string, status: DeliveryStatus | undefined, limit: number, start: PageStart<ListingKey>): Promise<Page<EventDelivery, ListingKey>> {
    let counted = this.db.selectFrom('event_counts').select((eb) => eb.fn.sum<number | string>('n').as('n')).where('client_id', '=', clientId);
    if (status) counted = counted.where('delivery_status', '=', status);
    const total = Number((await counted.executeTakeFirst())?.n ?? 0);
    let query = this.db.selectFrom('events').where('client_id', '=', clientId);
    if (status) query = query.where('delivery_status', '=', status);
    const bound = await boundOf(start, async (offset) => {
      const row = await query.select(['created_at', 'seq']).orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(1).offset(offset).executeTakeFirst();
      return row && keyOf(row);
    });
    if (!bound) return { items: [], total, hasMore: false, last: undefined };
    if (bound !== 'top') query = query.where(({ eb, refTuple, tuple }) => eb(refTuple('created_at', 'seq'), bound.op, tuple(bound.key.createdAt, bound.key.seq)));
    const rows = await query.select([...DELIVERY_COLUMNS, 'seq']).orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(limit + 1).execute();
    return pageOf(rows, limit, total, ({ seq: _seq, ...row }) => parse(row), keyOf);
  }

  /** Sends an event again from the start of the retry schedule, whatever its state. */
  async resend(clientId: string, id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('events')
      .set({ delivery_status: 'pending', attempts: 0, next_attempt_at: '', claimed_until: null, delivered_at: null })
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }
}
