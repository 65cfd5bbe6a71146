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
const isDue =
  ({ now, claimAt }: Pick<DueWindow, 'now' | 'claimAt'>) =>
  (eb: ExpressionBuilder<Database, 'events'>) =>
    eb.and([
      eb('delivery_status', '=', 'pending'),
      eb('next_attempt_at', '<=', now),
      eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', claimAt)]),
    ]);

const clientsWithDueEventsQuery = (db: Executor, now: string, claimAt: string) =>
  db
    .selectFrom('webhook_endpoints')
    .select('client_id')
    .where('disabled_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('events')
          .select('seq')
          .whereRef('events.client_id', '=', 'webhook_endpoints.client_id')
          .where(isDue({ now, claimAt })),
      ),
    );

/** An outbox row, for a change to write with its rows (changes.ts); `add` inserts one. */
export function eventRow(clientId: string, eventType: string, data: Record<string, unknown>, now: Date) {
  return {
    id: newId('evt_'),
    client_id: clientId,
    event_type: eventType,
    data: JSON.stringify(data),
    created_at: isoInstant(now),
    holds_secret: holdsSecrets(eventType) ? 1 : 0,
  };
}

/**
 * A point in the outbox's commit order, for a listener (`listenFrom`): every event before it was listed. `txid` is
 * PostgreSQL's transaction id ("0" on SQLite, whose writes commit in `seq` order), as decimal text.
 */
export interface ListenCursor {
  txid: string;
  seq: number;
}

/** Counts the events a store (and its transactions) wrote, so the dispatcher is woken only when there may be something new. */
export class OutboxCounter {
  count = 0;
}

const DELIVERY_COLUMNS = [
  'id',
  'client_id',
  'event_type',
  'data',
  'created_at',
  'delivery_status',
  'attempts',
  'next_attempt_at',
  'delivered_at',
] as const;
const parse = <T extends { data: string }>(row: T) => ({
  ...row,
  data: JSON.parse(row.data) as Record<string, unknown>,
});

/** The outbox. Add events through a transaction's store so they commit with the change that causes them. */
export class EventRepository {
  private readonly db: Executor;
  private readonly dialect: Dialect;
  readonly written: OutboxCounter;

  constructor(db: Executor, dialect: Dialect, written: OutboxCounter) {
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
    const row = await this.db
      .selectFrom('events')
      .select(['event_type', 'data'])
      .where('id', '=', id)
      .where('holds_secret', '=', 1)
      .executeTakeFirst();
    if (!row) return;
    const data = JSON.stringify(redactSecrets(row.event_type, JSON.parse(row.data) as Record<string, unknown>));
    await this.db.updateTable('events').set({ data, holds_secret: 0 }).where('id', '=', id).execute();
  }

  /** Events created before `cutoff` that still hold a secret. */
  async holdingSecretsSince(cutoff: string, limit: number): Promise<string[]> {
    // A literal: compared with a parameter, a partial index's term makes SQLite prepare the statement again at every
    // call (test/store/query-plans.test.ts).
    const rows = await this.db
      .selectFrom('events')
      .select('id')
      .where('holds_secret', '=', sql.lit(1))
      .where('created_at', '<', cutoff)
      .limit(limit)
      .execute();
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
    const redacted = final
      ? {
          data: JSON.stringify(redactSecrets(event.event_type, JSON.parse(event.data) as Record<string, unknown>)),
          holds_secret: 0,
        }
      : {};
    const result = await this.db
      .updateTable('events')
      .set({
        delivery_status: outcome.status,
        attempts: outcome.attempts,
        next_attempt_at: outcome.nextAttemptAt,
        delivered_at: outcome.deliveredAt,
        claimed_until: null,
        ...redacted,
      })
      .where('id', '=', event.id)
      .where('claimed_until', '=', claimedUntil)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** Gives an event back unattempted (its endpoint was disabled while it waited). */
  async release(id: string, claimedUntil: string): Promise<void> {
    await this.db
      .updateTable('events')
      .set({ claimed_until: null })
      .where('id', '=', id)
      .where('claimed_until', '=', claimedUntil)
      .execute();
  }

  async findForClient(clientId: string, id: string): Promise<EventDelivery | undefined> {
    const row = await this.db
      .selectFrom('events')
      .select(DELIVERY_COLUMNS)
      .where('client_id', '=', clientId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && parse(row);
  }

  /**
   * The delivery log, newest first (by `created_at`, then insertion), through `events_by_client` or, for one status, `events_by_client_status`; the
   * total from `event_counts` (migration 012). A deep page number walks the index's keys to its first row.
   */
  async deliveries(
    clientId: string,
    status: DeliveryStatus | undefined,
    limit: number,
    start: PageStart<ListingKey>,
  ): Promise<Page<EventDelivery, ListingKey>> {
    let counted = this.db
      .selectFrom('event_counts')
      .select((eb) => eb.fn.sum<number | string>('n').as('n'))
      .where('client_id', '=', clientId);
    if (status) counted = counted.where('delivery_status', '=', status);
    const total = Number((await counted.executeTakeFirst())?.n ?? 0);
    let query = this.db.selectFrom('events').where('client_id', '=', clientId);
    if (status) query = query.where('delivery_status', '=', status);
    const bound = await boundOf(start, async (offset) => {
      const row = await query
        .select(['created_at', 'seq'])
        .orderBy('created_at', 'desc')
        .orderBy('seq', 'desc')
        .limit(1)
        .offset(offset)
        .executeTakeFirst();
      return row && keyOf(row);
    });
    if (!bound) return { items: [], total, hasMore: false, last: undefined };
    if (bound !== 'top')
      query = query.where(({ eb, refTuple, tuple }) =>
        eb(refTuple('created_at', 'seq'), bound.op, tuple(bound.key.createdAt, bound.key.seq)),
      );
    const rows = await query
      .select([...DELIVERY_COLUMNS, 'seq'])
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(limit + 1)
      .execute();
    return pageOf(rows, limit, total, ({ seq: _seq, ...row }) => parse(row), keyOf);
  }

  /**
   * A client's events after `after`, in the order they committed, at most `limit`, and the cursor after them; without
   * `after`, none and the cursor of the present. On PostgreSQL an event is listed only once every transaction older
   * than its own has ended: one still running may yet commit an event that a later one already did, and the cursor
   * must not pass it. An event written after the cursor is listed after it, whatever comes between (docs/webhooks.md).
   */
  async listenFrom(
    clientId: string,
    after: ListenCursor | undefined,
    limit: number,
  ): Promise<{ events: StoredEvent[]; next: ListenCursor }> {
    const columns = ['id', 'client_id', 'event_type', 'data', 'created_at', 'seq'] as const;
    if (this.dialect === 'sqlite') {
      const top = Number(
        (
          await this.db
            .selectFrom('events')
            .select((eb) => eb.fn.max('seq').as('seq'))
            .executeTakeFirst()
        )?.seq ?? 0,
      );
      if (!after) return { events: [], next: { txid: '0', seq: top } };
      // Along the primary key from the cursor (`+` keeps SQLite off the client's index, which holds its whole history).
      const rows = await this.db
        .selectFrom('events')
        .select(columns)
        .where('seq', '>', after.seq)
        .where('seq', '<=', top)
        .where(sql<string>`+"client_id"`, '=', clientId)
        .orderBy('seq')
        .limit(limit)
        .execute();
      const last = rows.length === limit ? rows.at(-1)!.seq : top;
      return { events: rows.map(({ seq: _seq, ...row }) => parse(row)), next: { txid: '0', seq: last } };
    }
    // Every transaction with an id below the oldest one running has ended: their events are all there is of them.
    // A listener starts after every transaction that has an id by now (`xmax`): the horizon may be far behind, and
    // events committed before it started are not its.
    const {
      rows: [{ horizon, present }],
    } = (await sql<{
      horizon: string;
      present: string;
    }>`SELECT pg_snapshot_xmin(s)::text AS horizon, pg_snapshot_xmax(s)::text AS present FROM pg_current_snapshot() AS s`.execute(
      this.db,
    )) as { rows: [{ horizon: string; present: string }] };
    if (!after) return { events: [], next: { txid: present, seq: 0 } };
    const rows = await this.db
      .selectFrom('events')
      .select([...columns, 'txid'])
      .where('client_id', '=', clientId)
      .where('txid', '<', horizon)
      .where(({ eb, refTuple, tuple }) => eb(refTuple('txid', 'seq'), '>', tuple(after.txid, after.seq)))
      .orderBy('txid')
      .orderBy('seq')
      .limit(limit)
      .execute();
    const last = rows.at(-1);
    // The horizon, unless the cursor is past it already (a listener's first cursor is the present).
    const next =
      rows.length === limit && last
        ? { txid: String(last.txid), seq: Number(last.seq) }
        : BigInt(horizon) > BigInt(after.txid)
          ? { txid: horizon, seq: 0 }
          : after;
    return { events: rows.map(({ seq: _seq, txid: _txid, ...row }) => parse(row)), next };
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
