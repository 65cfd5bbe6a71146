import type { Executor, WebhookAttemptsTable, WebhookEndpointsTable } from './schema.ts';

export type WebhookEndpoint = WebhookEndpointsTable;
export type WebhookAttempt = Omit<WebhookAttemptsTable, 'seq'>;

export class WebhookEndpointRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async find(clientId: string): Promise<WebhookEndpoint | undefined> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('client_id', '=', clientId).executeTakeFirst();
  }

  /**
   * Registers `endpoint.url` for its client in one statement: a first registration stores `endpoint` whole; a later
   * one replaces the URL, re-enables the endpoint and keeps the signing secret. Two first registrations at once
   * cannot both insert.
   */
  async register(endpoint: WebhookEndpoint): Promise<WebhookEndpoint> {
    return this.db
      .insertInto('webhook_endpoints')
      .values(endpoint)
      .onConflict((oc) =>
        oc.column('client_id').doUpdateSet({
          url: endpoint.url,
          disabled_at: null,
          disabled_reason: null,
          updated_at: endpoint.updated_at,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(clientId: string, changes: Partial<Omit<WebhookEndpoint, 'client_id'>>): Promise<void> {
    await this.db.updateTable('webhook_endpoints').set(changes).where('client_id', '=', clientId).execute();
  }

  /** Endpoints that deliveries may go to now. */
  async enabled(clientIds: string[]): Promise<WebhookEndpoint[]> {
    if (clientIds.length === 0) return [];
    return this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('client_id', 'in', clientIds)
      .where('disabled_at', 'is', null)
      .execute();
  }

  async addAttempt(attempt: WebhookAttempt): Promise<void> {
    await this.db.insertInto('webhook_attempts').values(attempt).execute();
  }

  async attemptsFor(eventId: string): Promise<WebhookAttempt[]> {
    return this.db
      .selectFrom('webhook_attempts')
      .select(['event_id', 'client_id', 'url', 'attempted_at', 'status_code', 'error', 'duration_ms'])
      .where('event_id', '=', eventId)
      .orderBy('seq')
      .execute();
  }
}
