import { sql, type Kysely, type KyselyPlugin } from 'kysely';
import type { Database, Dialect, Executor } from './schema.ts';
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
import { OperatorRepository } from './operators.ts';
import { ConsoleListingRepository } from './console-listing.ts';
import { ReceiptRepository } from './receipts.ts';
import { PaymentDetailsRepository } from './payment-details.ts';
import { RecentMerchants } from './recent-merchants.ts';
import { writeChange, type Change } from './changes.ts';
import type { AnswerSeal } from './idempotency-keys.ts';
import type { RunSteps } from './sqlite/writer-thread.ts';
import type { LongRead, LongReads } from './long-reads.ts';
import { LedgerRepository } from './ledger.ts';
import { PayoutRepository } from './payouts.ts';
import { DisputeRepository } from './disputes.ts';

interface StoreOptions {
  dialect: Dialect;
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
  /** SQLite: runs statements as one unit of the group commit, which is how a change is written there (changes.ts). */
  runSteps?: RunSteps | undefined;
  /** A store that refuses to write (`reading()`). */
  readOnly?: boolean;
  /** Where reads that could run long go (long-reads.ts); without it they run as any other. */
  longReads?: LongReads | undefined;
}

/** Each repository, as it is made over a store's handle. */
const REPOSITORIES = {
  clients: (db: Executor) => new ClientRepository(db),
  merchants: (db: Executor, store: StoreBasics) => new MerchantRepository(db, () => store.merchantChanged()),
  onboardingTokens: (db: Executor) => new OnboardingTokenRepository(db),
  customers: (db: Executor) => new CustomerRepository(db),
  events: (db: Executor, store: StoreBasics) => new EventRepository(db, store.dialect, store.outboxWritten),
  paymentRequests: (db: Executor) => new PaymentRequestRepository(db),
  transactions: (db: Executor, store: StoreBasics) => new TransactionRepository(db, store.dialect),
  paymentMethods: (db: Executor) => new PaymentMethodRepository(db),
  messages: (db: Executor) => new MessageRepository(db),
  settings: (db: Executor) => new SettingsRepository(db),
  webhookEndpoints: (db: Executor) => new WebhookEndpointRepository(db),
  widgets: (db: Executor, store: StoreBasics) => new WidgetRepository(db, () => store.merchantChanged()),
  branding: (db: Executor) => new BrandingRepository(db),
  idempotencyKeys: (db: Executor, store: StoreBasics) => new IdempotencyKeyRepository(db, store.runSteps),
  operators: (db: Executor) => new OperatorRepository(db),
  consoleListing: (db: Executor, store: StoreBasics) => new ConsoleListingRepository(db, store.dialect),
  receipts: (db: Executor) => new ReceiptRepository(db),
  paymentDetails: (db: Executor) => new PaymentDetailsRepository(db),
  ledger: (db: Executor) => new LedgerRepository(db),
  payouts: (db: Executor, store: StoreBasics) => new PayoutRepository(db, store.dialect),
  disputes: (db: Executor) => new DisputeRepository(db),
};
type RepositoryName = keyof typeof REPOSITORIES;
type Repositories = { readonly [K in RepositoryName]: ReturnType<(typeof REPOSITORIES)[K]> };
interface StoreBasics {
  dialect: Dialect;
  runSteps: RunSteps | undefined;
  recentMerchants: RecentMerchants<KeyedMerchant>;
  outboxWritten: OutboxCounter;
  merchantChanged(): void;
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
  readonly runSteps: RunSteps | undefined;
  /** A unit's store: the same, less closing and the committed version (a unit sees its own writes before they commit). */
  private readonly unitOptions: StoreOptions;
  private readonly made: { -readonly [K in RepositoryName]?: Repositories[K] } = {};

  private readonly db: Executor;
  private readonly options: StoreOptions;
  private reader: Store | undefined;
  private changedMerchant = false;

  constructor(db: Executor, options: StoreOptions) {
    this.db = db;
    this.options = options;
    this.dialect = options.dialect;
    this.outboxWritten = options.outboxWritten ?? new OutboxCounter();
    this.committedVersion = options.committedVersion;
    this.recentMerchants = options.recentMerchants ?? new RecentMerchants<KeyedMerchant>();
    this.runSteps = options.runSteps;
    this.unitOptions = {
      dialect: this.dialect,
      outboxWritten: this.outboxWritten,
      recentMerchants: this.recentMerchants,
      runSteps: this.runSteps,
    };
  }

  /**
   * Runs `work` as one unit of work, a Kysely transaction (on SQLite, a unit of the group commit): every write through
   * `tx`, events included, commits together or not at all. Inside a unit it joins the one already open. For writes
   * that are more than one change.
   */
  async transaction<T>(work: (tx: Store) => Promise<T>): Promise<T> {
    if (this.options.readOnly) throw readOnly();
    if (this.db.isTransaction) return work(this);
    let unit: Store | undefined;
    const done = await (this.db as Kysely<Database>)
      .transaction()
      .execute((db) => work((unit = new Store(db, this.unitOptions))));
    // Again once committed: a read between the write and its commit may have remembered the merchant as it was.
    if (unit?.changedMerchant) this.recentMerchants.clear();
    return done;
  }

  /** A merchant, or what is remembered with it (its receipts setting), was written: forget the remembered merchants. */
  merchantChanged(): void {
    this.changedMerchant = true;
    this.recentMerchants.clear();
  }

  /**
   * Writes a change decided on a read (changes.ts), with a keyed request's answer when sealed; false when a guard no
   * longer holds: nothing was written, read and decide again. Throws a conflict when the request's claim was lost.
   */
  async write(change: Change, seal?: AnswerSeal): Promise<boolean> {
    if (this.options.readOnly) throw readOnly();
    const written = await writeChange(this.db, change, seal, this.runSteps);
    if (written) this.outboxWritten.count += change.events.length;
    return written;
  }

  /** Whether this is a unit of work's store. */
  get isUnit(): boolean {
    return this.db.isTransaction;
  }

  /** The same store, refusing to write: what routes read through (plugins/request-unit.ts). */
  reading(): Store {
    return (this.reader ??= new Store((this.db as Kysely<Database>).withPlugin(REFUSE_WRITES), {
      ...this.unitOptions,
      readOnly: true,
      committedVersion: this.committedVersion,
      longReads: this.options.longReads,
    }));
  }

  /**
   * Runs reads that could run long (a console listing, search or export page) where they cannot hold the service:
   * `work` gets a store over the reader thread (SQLite) or a read-only transaction with `kind`'s statement timeout
   * (PostgreSQL). Inside a unit of work it reads in the unit.
   */
  async longRead<T>(kind: LongRead, work: (reader: Store) => Promise<T>): Promise<T> {
    const reads = this.options.longReads;
    if (this.db.isTransaction || !reads) return work(this);
    return reads(kind, (db) => work(new Store(db, { ...this.unitOptions, readOnly: true })));
  }

  /** Whether the database answers a trivial query within `timeoutMs` (readiness: `GET /health`). */
  async reachable(timeoutMs = 1000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, timeoutMs, false)));
    const answered = sql`select 1`.execute(this.db).then(
      () => true,
      () => false,
    );
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

const readOnly = () =>
  new Error("this store only reads: a route writes through its request's unit (request.unit, plugins/request-unit.ts)");

/** Fails every statement but a read, before it is sent. */
const REFUSE_WRITES: KyselyPlugin = {
  transformQuery({ node }) {
    if (node.kind !== 'SelectQueryNode' && node.kind !== 'RawNode') throw readOnly();
    return node;
  },
  transformResult: async ({ result }) => result,
};
