import { sql } from 'kysely';
import type { Dialect, Executor } from './schema.ts';
import { ClientRepository } from './clients.ts';
import { MerchantRepository, type KeyedMerchant } from './merchants.ts';
import { OnboardingTokenRepository } from './onboarding-tokens.ts';
import { CustomerRepository } from './customers.ts';
import { EventRepository, OutboxCounter } from './events.ts';
import { PaymentRequestRepository } from './payment-requests.ts';
import { TransactionRepository } from './transactions.ts';
import { PaymentMethodRepository } from './payment-methods.ts';
import { MessageRepository } from './messages.ts';
import { SettingsRepository } from './settings.ts';
import { WebhookEndpointRepository } from './webhook-endpoints.ts';
import { WidgetRepository } from './widgets.ts';
import { BrandingRepository } from './branding.ts';
import { IdempotencyKeyRepository } from './idempotency-keys.ts';
import { OrderRepository } from './orders.ts';
import { OperatorRepository } from './operators.ts';
import { ConsoleListingRepository } from './console-listing.ts';
import { ReceiptRepository } from './receipts.ts';
import { PaymentDetailsRepository } from './payment-details.ts';
import type { RunUnit } from './units.ts';
import { RecentMerchants } from './recent-merchants.ts';
import { GuardedChangeRepository, type GuardedChange } from './guarded-changes.ts';

interface StoreOptions {
  dialect: Dialect;
  /** How a unit of work runs on this database (units.ts). */
  runUnit: RunUnit;
  onClose?: () => Promise<void>;
  /** Shared with the store's transactions: how many events they all wrote. */
  outboxWritten?: OutboxCounter;
  /**
   * A number that changes whenever anything is committed to the database, read before what it vouches for: an answer
   * computed after reading it is current for as long as it reads the same. Only where reading it is far cheaper than
   * a query (the embedded database); never inside a unit of work, which sees its own writes before they commit.
   */
  committedVersion?: (() => number) | undefined;
  /** Shared with the store's transactions: merchants read in the last few seconds. */
  recentMerchants?: RecentMerchants<KeyedMerchant>;
}

/** Each repository, as it is made over a store's handle. */
const REPOSITORIES = {
  clients: (db: Executor) => new ClientRepository(db),
  merchants: (db: Executor, store: StoreBasics) => new MerchantRepository(db, store.recentMerchants),
  onboardingTokens: (db: Executor) => new OnboardingTokenRepository(db),
  customers: (db: Executor) => new CustomerRepository(db),
  events: (db: Executor, store: StoreBasics) => new EventRepository(db, store.dialect, store.outboxWritten),
  paymentRequests: (db: Executor, store: StoreBasics) => new PaymentRequestRepository(db, store.dialect),
  transactions: (db: Executor, store: StoreBasics) => new TransactionRepository(db, store.dialect),
  paymentMethods: (db: Executor) => new PaymentMethodRepository(db),
  messages: (db: Executor) => new MessageRepository(db),
  settings: (db: Executor) => new SettingsRepository(db),
  webhookEndpoints: (db: Executor) => new WebhookEndpointRepository(db),
  widgets: (db: Executor) => new WidgetRepository(db),
  branding: (db: Executor) => new BrandingRepository(db),
  idempotencyKeys: (db: Executor) => new IdempotencyKeyRepository(db),
  orders: (db: Executor) => new OrderRepository(db),
  operators: (db: Executor) => new OperatorRepository(db),
  consoleListing: (db: Executor) => new ConsoleListingRepository(db),
  receipts: (db: Executor) => new ReceiptRepository(db),
  paymentDetails: (db: Executor) => new PaymentDetailsRepository(db),
  guardedChanges: (db: Executor, store: StoreBasics) => new GuardedChangeRepository(db, store.dialect, store.outboxWritten),
};
type RepositoryName = keyof typeof REPOSITORIES;
type Repositories = { readonly [K in RepositoryName]: ReturnType<(typeof REPOSITORIES)[K]> };
interface StoreBasics {
  dialect: Dialect;
  recentMerchants: RecentMerchants<KeyedMerchant>;
  outboxWritten: OutboxCounter;
}

// The class below has a getter for each repository (made in its static block).
export interface Store extends Repositories {}

/**
 * The repositories over one database handle, or over one open transaction. Each is made when first used: a unit of
 * work has a store of its own and uses a few of them.
 */
export class Store {
  static {
    for (const name of Object.keys(REPOSITORIES) as RepositoryName[]) {
      const make = REPOSITORIES[name];
      Object.defineProperty(Store.prototype, name, {
        get(this: Store) {
          return (this.made[name] ??= make(this.db, this) as never);
        },
      });
    }
  }

  readonly dialect: Dialect;
  readonly outboxWritten: OutboxCounter;
  readonly committedVersion: (() => number) | undefined;
  readonly recentMerchants: RecentMerchants<KeyedMerchant>;
  /** A unit's store: the same, less closing and the committed version (a unit sees its own writes before they commit). */
  private readonly unitOptions: StoreOptions;
  private readonly made: { -readonly [K in RepositoryName]?: Repositories[K] } = {};

  private readonly db: Executor;
  private readonly options: StoreOptions;

  constructor(
    db: Executor,
    options: StoreOptions,
  ) {
    this.db = db;
    this.options = options;
    this.dialect = options.dialect;
    this.outboxWritten = options.outboxWritten ?? new OutboxCounter();
    this.committedVersion = options.committedVersion;
    this.recentMerchants = options.recentMerchants ?? new RecentMerchants<KeyedMerchant>();
    this.unitOptions = { dialect: this.dialect, runUnit: options.runUnit, outboxWritten: this.outboxWritten, recentMerchants: this.recentMerchants };
  }

  /**
   * Runs `work` as one unit of work (units.ts): every write through `tx`, events included, commits together or not
   * at all. Inside a unit it joins the one already open. A request with an Idempotency-Key runs its handler in one,
   * so its change and its recorded answer commit together (plugins/idempotency.ts, `request.store`).
   */
  async transaction<T>(work: (tx: Store) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    return this.options.runUnit((unit) => work(new Store(unit, this.unitOptions)));
  }

  /**
   * Runs a write that is one statement on PostgreSQL, which needs no BEGIN, and several in a unit of work on SQLite:
   * `guardedChange`, `paymentRequests.insertWithOrder`.
   */
  async singleWrite(work: (store: Store) => Promise<boolean>): Promise<boolean> {
    return this.dialect === 'postgres' || this.db.isTransaction ? work(this) : this.transaction(work);
  }

  /** Applies a change decided on an unlocked read if the row still reads as it did (guarded-changes.ts); false when it changed meanwhile. */
  async guardedChange(change: GuardedChange): Promise<boolean> {
    return this.singleWrite((store) => store.guardedChanges.apply(change));
  }

  /** Whether the database answers a trivial query within `timeoutMs` (readiness: `GET /health`). */
  async reachable(timeoutMs = 1000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)));
    const answered = sql`select 1`.execute(this.db).then(() => true, () => false);
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.options.onClose?.();
  }
}
