import type { Kysely } from 'kysely';
import type { Database, Dialect, Executor } from './schema.ts';
import { ClientRepository } from './clients.ts';
import { MerchantRepository } from './merchants.ts';
import { OnboardingTokenRepository } from './onboarding-tokens.ts';
import { CustomerRepository } from './customers.ts';
import { EventRepository } from './events.ts';
import { PaymentRequestRepository } from './payment-requests.ts';
import { TransactionRepository } from './transactions.ts';
import { PaymentMethodRepository } from './payment-methods.ts';
import { MessageRepository } from './messages.ts';
import { SettingsRepository } from './settings.ts';
import { WebhookEndpointRepository } from './webhook-endpoints.ts';
import { WidgetRepository } from './widgets.ts';
import { IdempotencyKeyRepository } from './idempotency-keys.ts';

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

  constructor(
    private readonly db: Executor,
    readonly dialect: Dialect,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {
    this.clients = new ClientRepository(db);
    this.merchants = new MerchantRepository(db);
    this.onboardingTokens = new OnboardingTokenRepository(db);
    this.customers = new CustomerRepository(db);
    this.events = new EventRepository(db, dialect);
    this.paymentRequests = new PaymentRequestRepository(db);
    this.transactions = new TransactionRepository(db, dialect);
    this.paymentMethods = new PaymentMethodRepository(db);
    this.messages = new MessageRepository(db);
    this.settings = new SettingsRepository(db);
    this.webhookEndpoints = new WebhookEndpointRepository(db);
    this.widgets = new WidgetRepository(db);
    this.idempotencyKeys = new IdempotencyKeyRepository(db);
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
