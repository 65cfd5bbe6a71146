import type { Kysely } from 'kysely';
import type { Database, Dialect, Executor } from './schema.ts';
import { ClientRepository } from './clients.ts';
import { MerchantRepository } from './merchants.ts';
import { OnboardingTokenRepository } from './onboarding-tokens.ts';
import { CustomerRepository } from './customers.ts';
import { EventRepository } from './events.ts';

/** The repositories over one database handle, or over one open transaction. */
export class Store {
  readonly clients: ClientRepository;
  readonly merchants: MerchantRepository;
  readonly onboardingTokens: OnboardingTokenRepository;
  readonly customers: CustomerRepository;
  readonly events: EventRepository;

  constructor(
    private readonly db: Executor,
    readonly dialect: Dialect,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {
    this.clients = new ClientRepository(db);
    this.merchants = new MerchantRepository(db);
    this.onboardingTokens = new OnboardingTokenRepository(db);
    this.customers = new CustomerRepository(db);
    this.events = new EventRepository(db);
  }

  /**
   * Runs `work` in one database transaction: every write through `tx`, events included, commits
   * together or not at all. Inside a transaction it joins the one already open.
   */
  async transaction<T>(work: (tx: Store) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    return (this.db as Kysely<Database>).transaction().execute((trx) => work(new Store(trx, this.dialect)));
  }

  async close(): Promise<void> {
    await this.onClose();
  }
}
