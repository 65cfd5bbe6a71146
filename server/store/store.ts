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
  #clients: ClientRepository | undefined;
  #merchants: MerchantRepository | undefined;
  #onboardingTokens: OnboardingTokenRepository | undefined;
  #customers: CustomerRepository | undefined;
  #events: EventRepository | undefined;
  #paymentRequests: PaymentRequestRepository | undefined;
  #transactions: TransactionRepository | undefined;
  #paymentMethods: PaymentMethodRepository | undefined;
  #messages: MessageRepository | undefined;
  #settings: SettingsRepository | undefined;
  #webhookEndpoints: WebhookEndpointRepository | undefined;
  #widgets: WidgetRepository | undefined;
  #idempotencyKeys: IdempotencyKeyRepository | undefined;
  #orders: OrderRepository | undefined;
  #operators: OperatorRepository | undefined;

  readonly dialect: Dialect;
  readonly outboxWritten: OutboxCounter;
  readonly groupSizes: GroupSizes | undefined;
  readonly committedVersion: (() => number) | undefined;
  /** A unit's store: the same, less closing and the committed version (a unit sees its own writes before they commit). */
  private readonly unitOptions: StoreOptions;

  /** Repositories are made when first used: a unit of work has a store of its own and uses a few. */
  constructor(
    private readonly db: Executor,
    private readonly options: StoreOptions,
  ) {
    this.dialect = options.dialect;
    this.outboxWritten = options.outboxWritten ?? new OutboxCounter();
    this.groupSizes = options.groupSizes;
    this.committedVersion = options.committedVersion;
    this.unitOptions = { dialect: this.dialect, runUnit: options.runUnit, outboxWritten: this.outboxWritten, groupSizes: this.groupSizes };
  }

  get clients(): ClientRepository {
    return (this.#clients ??= new ClientRepository(this.db));
  }

  get merchants(): MerchantRepository {
    return (this.#merchants ??= new MerchantRepository(this.db));
  }

  get onboardingTokens(): OnboardingTokenRepository {
    return (this.#onboardingTokens ??= new OnboardingTokenRepository(this.db));
  }

  get customers(): CustomerRepository {
    return (this.#customers ??= new CustomerRepository(this.db));
  }

  get events(): EventRepository {
    return (this.#events ??= new EventRepository(this.db, this.dialect, this.outboxWritten));
  }

  get paymentRequests(): PaymentRequestRepository {
    return (this.#paymentRequests ??= new PaymentRequestRepository(this.db));
  }

  get transactions(): TransactionRepository {
    return (this.#transactions ??= new TransactionRepository(this.db, this.dialect));
  }

  get paymentMethods(): PaymentMethodRepository {
    return (this.#paymentMethods ??= new PaymentMethodRepository(this.db));
  }

  get messages(): MessageRepository {
    return (this.#messages ??= new MessageRepository(this.db));
  }

  get settings(): SettingsRepository {
    return (this.#settings ??= new SettingsRepository(this.db));
  }

  get webhookEndpoints(): WebhookEndpointRepository {
    return (this.#webhookEndpoints ??= new WebhookEndpointRepository(this.db));
  }

  get widgets(): WidgetRepository {
    return (this.#widgets ??= new WidgetRepository(this.db));
  }

  get idempotencyKeys(): IdempotencyKeyRepository {
    return (this.#idempotencyKeys ??= new IdempotencyKeyRepository(this.db));
  }

  get orders(): OrderRepository {
    return (this.#orders ??= new OrderRepository(this.db));
  }

  get operators(): OperatorRepository {
    return (this.#operators ??= new OperatorRepository(this.db));
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

  async close(): Promise<void> {
    await this.options.onClose?.();
  }
}
