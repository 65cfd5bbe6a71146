import type { Executor } from './schema.ts';
import { newId } from '../secrets.ts';

export interface StoredEvent {
  id: string;
  client_id: string;
  event_type: string;
  data: Record<string, unknown>;
  created_at: string;
}

/** The outbox. Add events through a transaction's store so they commit with the change that causes them. */
export class EventRepository {
  constructor(private readonly db: Executor) {}

  async add(clientId: string, eventType: string, data: Record<string, unknown>, now: Date): Promise<string> {
    const id = newId('evt_');
    await this.db
      .insertInto('events')
      .values({ id, client_id: clientId, event_type: eventType, data: JSON.stringify(data), created_at: now.toISOString() })
      .execute();
    return id;
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
}
