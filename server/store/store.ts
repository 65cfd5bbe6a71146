import type { Database, Dialect, Executor } from './schema.ts';
import { ClientRepository } from './clients.ts';
import { MerchantRepository } from './merchants.ts';
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
import { IdempotencyKeyRepository } from './idempotency-keys.ts';
import { OrderRepository } from './orders.ts';
import { OperatorRepository } from './operators.ts';
import type { GroupSizes } from './sqlite/group-sizes.ts';
import type { RunUnit } from './units.ts';

export interface StoreOptions {
  dialect: Dialect;
  /** How a unit of work runs on this database (units.ts). */
  runUnit: RunUnit;
  onClose?: () => Promise<void>;
  /** Shared with the store's transactions: how many events they all wrote. */
  outboxWritten?: OutboxCounter;
  /** On the embedded database: how many units its group commits held. */
  groupSizes?: GroupSizes | undefined;
  /**
   * A number that changes whenever anything is committed to the database, read before what it vouches for: an answer
   * computed after reading it is current for as long as it reads the same. Only where reading it is far cheaper than
   * a query (the embedded database); never inside a unit of work, which sees its own writes before they commit.
   */
  committedVersion?: (() => number) | undefined;
}

/** The repositories over one database handle, or over one open transaction. */
export class Store {
  readonly clients: ClientRepository;
  readonly merchants: MerchantRepository;
  readonly onboardingTokens: OnboardingTokenRepository;
  readonly customers: CustomerRepository;
  readonly events: EventRepository;
  readonly paymentRequests: PaymentRequestRepository;
  readonly transactions: TransactionRepository;
  readonly paymentMethods: PaymentMethodRepository;
  readonly messages: MessageRepository;
  readonly settings: SettingsRepository;
  readonly webhookEndpoints: WebhookEndpointRepository;
  readonly widgets: WidgetRepository;
  readonly idempotencyKeys: IdempotencyKeyRepository;
  readonly orders: OrderRepository;
  readonly operators: OperatorRepository;

  readonly dialect: Dialect;
  readonly outboxWritten: OutboxCounter;
  readonly groupSizes: GroupSizes | undefined;
  readonly committedVersion: (() => number) | undefined;
  private readonly db: Executor;

  constructor(
    database: Executor,
    private readonly options: StoreOptions,
  ) {
    const { dialect } = options;
    this.dialect = dialect;
    const outboxWritten = (this.outboxWritten = options.outboxWritten ?? new OutboxCounter());
    this.groupSizes = options.groupSizes;
    this.committedVersion = options.committedVersion;
    const db = database;
    this.db = db;
    this.clients = new ClientRepository(db);
    this.merchants = new MerchantRepository(db);
    this.onboardingTokens = new OnboardingTokenRepository(db);
    this.customers = new CustomerRepository(db);
    this.events = new EventRepository(db, dialect, outboxWritten);
    this.paymentRequests = new PaymentRequestRepository(db);
    this.transactions = new TransactionRepository(db, dialect);
    this.paymentMethods = new PaymentMethodRepository(db);
    this.messages = new MessageRepository(db);
    this.settings = new SettingsRepository(db);
    this.webhookEndpoints = new WebhookEndpointRepository(db);
    this.widgets = new WidgetRepository(db);
    this.idempotencyKeys = new IdempotencyKeyRepository(db);
    this.orders = new OrderRepository(db);
    this.operators = new OperatorRepository(db);
  }

  /**
   * Runs `work` as one unit of work (units.ts): every write through `tx`, events included, commits together or not
   * at all. Inside a unit it joins the one already open. A request with an Idempotency-Key runs its handler in one,
   * so its change and its recorded answer commit together (plugins/idempotency.ts, `request.store`).
   */
  async transaction<T>(work: (tx: Store) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    const { onClose: _onClose, committedVersion: _committedVersion, ...options } = this.options;
    return this.options.runUnit((trx) => work(new Store(trx, { ...options, outboxWritten: this.outboxWritten })));
  }

  async close(): Promise<void> {
    await this.options.onClose?.();
  }
}
