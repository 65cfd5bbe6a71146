import type { ClientsTable, Executor } from './schema.ts';

export type Client = ClientsTable;

export class ClientRepository {
  private readonly db: Executor;

  constructor(db: Executor) {
    this.db = db;
  }

  async insert(client: Client): Promise<void> {
    await this.db.insertInto('clients').values(client).execute();
  }

  /** Several processes starting at once may each seed the same client: the first insert wins, the others do nothing. */
  async insertIfAbsent(client: Client): Promise<void> {
    await this.db
      .insertInto('clients')
      .values(client)
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
  }

  async findById(id: string): Promise<Client | undefined> {
    return this.db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async updateSecret(id: string, secretHash: string): Promise<void> {
    await this.db.updateTable('clients').set({ secret_hash: secretHash }).where('id', '=', id).execute();
  }
}
