/**
 * A long history for one merchant or client, written set-based in one statement per table (generate_series on
 * PostgreSQL, a recursive CTE on SQLite), not request by request: the plan tests and the growth bench
 * (bench/growth.ts) need 10k to 1M rows. Every row goes through the counters' triggers like any other write.
 *
 * The transactions: one every `days * 86 400 s / count`, oldest first, ending at `end`. Mostly completed card
 * sales; every 20th a refund, every 50th a hold, every 97th a voided sale, every 101st an ACH sale (pending or
 * declined in turn), every 23rd sale refunded in part: each listing and console filter has its share. Card brands
 * Visa, Mastercard, American Express and Discover as 5 : 3 : 1 : 1; amounts, last fours and order ids
 * (`Order-<prefix>-<i>`) vary from row to row. Every 10th row came from a pay link sent to one of 20,000 shoppers'
 * e-mails (`Shopper<i / 10 % 20000>@Example.com`: five payments each at a million rows), written by
 * `paymentRequestHistorySql`.
 */
export interface History {
  clientId: string;
  merchantId: string;
  count: number;
  /** Over how many days the rows spread. */
  days: number;
  /** The newest row's day, YYYY-MM-DD. */
  end: string;
  /** Row ids start with this, so that two histories of one merchant do not collide. */
  prefix?: string;
}

export type Dialect = 'sqlite' | 'postgres';

const SAFE = /^[A-Za-z0-9_-]{1,80}$/;
function check(history: History): void {
  for (const value of [history.clientId, history.merchantId, history.prefix ?? 'h']) {
    if (!SAFE.test(value)) throw new Error(`history: ${value} is not an id this seeding writes into SQL`);
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(history.end) || !Number.isInteger(history.count) || !Number.isInteger(history.days)) {
    throw new Error('history: end must be YYYY-MM-DD, count and days whole numbers');
  }
}

const ACH = 'i % 101 = 0 AND i % 20 <> 0 AND i % 50 <> 0 AND i % 97 <> 0';
const KIND = `CASE WHEN i % 50 = 0 THEN 'preauth' WHEN i % 20 = 0 THEN 'refund' ELSE 'sale' END`;
const STATUS = `CASE WHEN i % 50 = 0 THEN 'authorized' WHEN i % 20 = 0 THEN 'completed' WHEN i % 97 = 0 THEN 'voided'
  WHEN ${ACH} THEN CASE WHEN i % 2 = 0 THEN 'pending' ELSE 'declined' END ELSE 'completed' END`;
const AMOUNT = '(100 + (i * 7919) % 99900)';
const NET = `CASE WHEN i % 20 = 0 AND i % 50 <> 0 THEN -${AMOUNT} ELSE ${AMOUNT} - 32 END`;
const REFUNDED = `CASE WHEN i % 23 = 0 AND i % 20 <> 0 AND i % 50 <> 0 AND i % 97 <> 0 AND NOT (${ACH}) THEN 50 ELSE 0 END`;
const BRAND = `CASE WHEN ${ACH} THEN 'ACH' WHEN i % 10 < 5 THEN 'Visa' WHEN i % 10 < 8 THEN 'Mastercard' WHEN i % 10 = 8 THEN 'American Express' ELSE 'Discover' END`;
/** Rows from a pay link with an e-mail. */
const FROM_LINK = 'i % 10 = 1';

/** The one INSERT … SELECT that writes a merchant's history. */
export function transactionHistorySql(dialect: Dialect, history: History): string {
  check(history);
  const { clientId, merchantId, count } = history;
  const prefix = history.prefix ?? 'h';
  const columns = `"id", "client_id", "merchant_id", "customer_id", "request_id", "parent_id", "kind", "method", "status", "source",
    "order_id", "amount", "fee_amount", "net_amount", "refunded_amount", "card_brand", "last_four", "auth_code", "gateway_ref",
    "created_at", "completed_at", "settled_at"`;
  const lastFour =
    dialect === 'postgres' ? `lpad(((i * 7919) % 10000)::text, 4, '0')` : `substr('000' || ((i * 7919) % 10000), -4)`;
  const values = (at: string, i: string) => `'txn_${prefix}_' || ${i}, '${clientId}', '${merchantId}', NULL,
    CASE WHEN ${FROM_LINK} THEN 'lnk_${prefix}_' || ${i} END, NULL, ${KIND}, CASE WHEN ${ACH} THEN 'ach' ELSE 'card' END, ${STATUS},
    'pay_link', 'Order-${prefix}-' || ${i}, ${AMOUNT}, 32, ${NET}, ${REFUNDED}, ${BRAND}, ${lastFour}, 'A1B2C3', 'gw_${prefix}_' || ${i}, ${at}, ${at}, NULL`;
  return `${series(dialect, count)} INSERT INTO "transactions" (${columns}) SELECT ${values(instant(dialect, history), 'i')} FROM s`;
}

/** The pay links of a history's rows that came from one (every 10th), each sent to a shopper's e-mail. */
export function paymentRequestHistorySql(dialect: Dialect, history: History): string {
  check(history);
  const { clientId, merchantId, count } = history;
  const prefix = history.prefix ?? 'h';
  const columns = `"id", "client_id", "merchant_id", "customer_id", "token_hash", "source", "order_id", "amount", "discount", "surcharge",
    "tax", "description", "invoice_number", "customer_name", "email", "phone", "preauth", "pass_fee", "require_3ds", "allow_card",
    "allow_ach", "sub_merchant_key", "sales_id", "status", "transaction_id", "expires_at", "created_at", "paid_at"`;
  const at = instant(dialect, history);
  const values = `'lnk_${prefix}_' || i, '${clientId}', '${merchantId}', NULL, 'tok_${prefix}_' || i, 'pay_link', 'Order-${prefix}-' || i,
    ${AMOUNT}, 0, 0, 0, '', '', '', 'Shopper' || ((i / 10) % 20000) || '@Example.com', '', 0, 0, 0, 1, 0, NULL, 'txn_${prefix}_' || i, 'paid',
    'txn_${prefix}_' || i, ${at}, ${at}, ${at}`;
  return `${series(dialect, count)} INSERT INTO "payment_requests" (${columns}) SELECT ${values} FROM s WHERE ${FROM_LINK}`;
}

/** `s(i)` for i in 1..count, as a prefix of the statement (bigint: i * 7919 passes PostgreSQL's int4 past 271,000). */
const series = (dialect: Dialect, count: number) =>
  dialect === 'postgres'
    ? `WITH s(i) AS (SELECT generate_series(1::bigint, ${count}))`
    : `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${count})`;

/** Row i's time: one every `days * 86 400 s / count`, the last in the last millisecond of `end`. */
function instant(dialect: Dialect, { count, days, end }: History): string {
  const endMs = Date.parse(`${end}T00:00:00.000Z`) + 86_400_000 - 1;
  const stepMs = Math.floor((days * 86_400_000) / count);
  const startMs = endMs - stepMs * count;
  return dialect === 'postgres'
    ? `to_char(to_timestamp((${startMs}::bigint + i::bigint * ${stepMs}) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : `strftime('%Y-%m-%dT%H:%M:%fZ', (${startMs} + i * ${stepMs}) / 1000.0, 'unixepoch')`;
}

/** `count` customers of the merchant, set-based. */
export function customerHistorySql(
  dialect: Dialect,
  history: Pick<History, 'merchantId' | 'count' | 'end' | 'prefix'>,
): string {
  check({ ...history, clientId: 'c', days: 1 });
  const prefix = history.prefix ?? 'h';
  const select = `SELECT 'c_${prefix}_' || i, '${history.merchantId}', 'Ann', 'Lee', 'ann' || i || '@example.com', '', '${history.end}T12:00:00.000Z'`;
  const into =
    'INSERT INTO "customers" ("id", "merchant_id", "first_name", "last_name", "email", "phone", "created_at")';
  return dialect === 'postgres'
    ? `${into} ${select} FROM generate_series(1, ${history.count}) AS s(i)`
    : `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${history.count}) ${into} ${select} FROM s`;
}

/** `count` delivered webhook events of the client, every 10th still pending, set-based. */
export function eventHistorySql(
  dialect: Dialect,
  history: Pick<History, 'clientId' | 'count' | 'end' | 'prefix'>,
): string {
  check({ ...history, merchantId: 'm', days: 1 });
  const prefix = history.prefix ?? 'h';
  const select = `SELECT 'evt_${prefix}_' || i, '${history.clientId}', 'payment.sale', '{}', '${history.end}T12:00:00.000Z',
    CASE WHEN i % 10 = 0 THEN 'pending' ELSE 'delivered' END`;
  const into = 'INSERT INTO "events" ("id", "client_id", "event_type", "data", "created_at", "delivery_status")';
  return dialect === 'postgres'
    ? `${into} ${select} FROM generate_series(1, ${history.count}) AS s(i)`
    : `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${history.count}) ${into} ${select} FROM s`;
}

/** `count` merchants of the client in one status, submitted one a minute up to `end`, set-based. */
export function merchantHistorySql(
  dialect: Dialect,
  history: Pick<History, 'clientId' | 'count' | 'end' | 'prefix'> & { status: string },
): string {
  check({ ...history, merchantId: 'm', days: 1 });
  if (!/^[a-z]+$/.test(history.status)) throw new Error(`history: ${history.status} is not a status`);
  const prefix = history.prefix ?? 'h';
  const endMs = Date.parse(`${history.end}T00:00:00.000Z`);
  const at =
    dialect === 'postgres'
      ? `to_char(to_timestamp((${endMs}::bigint - i::bigint * 60000) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : `strftime('%Y-%m-%dT%H:%M:%fZ', (${endMs} - i * 60000) / 1000.0, 'unixepoch')`;
  const select = `SELECT 'm_${prefix}_' || i, '${history.clientId}', '${history.status}', 'Shop', 'shop@example.com', 'Ann', 'Lee', '', '',
    'pk_${prefix}_' || i, ${at}, ${at}`;
  const into = `INSERT INTO "merchants" ("id", "client_id", "status", "business_name", "email", "first_name", "last_name", "phone", "website",
    "public_key", "created_at", "submitted_at")`;
  return dialect === 'postgres'
    ? `${into} ${select} FROM generate_series(1, ${history.count}) AS s(i)`
    : `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${history.count}) ${into} ${select} FROM s`;
}

/**
 * `count` ledger entries of a merchant, set-based, each of 1.00 on `availableOn` (its available balance grows by
 * `count` dollars through the balances' trigger). With `payouts`, they are already swept, evenly, into that many paid
 * payouts of the merchant, which this writes too: a long history that the balance never reads.
 */
export function ledgerHistorySql(
  dialect: Dialect,
  history: {
    clientId: string;
    merchantId: string;
    count: number;
    availableOn: string;
    prefix?: string;
    payouts?: number;
  },
): string[] {
  check({
    clientId: history.clientId,
    merchantId: history.merchantId,
    count: history.count,
    days: 1,
    end: history.availableOn,
    prefix: history.prefix ?? 'h',
  });
  const prefix = history.prefix ?? 'h';
  const { merchantId, count, availableOn, payouts } = history;
  const payout = payouts ? `'po_${prefix}_' || (i % ${payouts})` : 'NULL';
  const select = `SELECT '${merchantId}', 'txn_${prefix}_' || i, 'sale', 100, '${availableOn}', '${availableOn}T08:00:00.000Z', ${payout}`;
  const into =
    'INSERT INTO "ledger_entries" ("merchant_id", "transaction_id", "type", "amount", "available_on", "created_at", "payout_id")';
  const entries =
    dialect === 'postgres'
      ? `${into} ${select} FROM generate_series(1, ${count}) AS s(i)`
      : `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${count}) ${into} ${select} FROM s`;
  if (!payouts) return [entries];
  if (count % payouts !== 0) throw new Error('history: the entries must split evenly over the payouts');
  const each = Math.floor(count / payouts);
  // A period a day, going back from `availableOn`.
  const period =
    dialect === 'postgres'
      ? `to_char(date '${availableOn}' - i, 'YYYY-MM-DD')`
      : `date('${availableOn}', '-' || i || ' days')`;
  const payoutRows = `SELECT 'po_${prefix}_' || i, '${history.clientId}', '${merchantId}', ${period}, ${each * 100}, ${each}, 'paid', '6789',
    '${availableOn}', '${availableOn}T00:00:00.000Z', '${availableOn}T00:00:00.000Z', NULL, NULL`;
  const payoutsInto = `INSERT INTO "payouts" ("id", "client_id", "merchant_id", "period", "amount", "entry_count", "status", "bank_last_four", "arrival_date",
    "created_at", "updated_at", "failure_code", "failure_message")`;
  const payoutSql =
    dialect === 'postgres'
      ? `${payoutsInto} ${payoutRows} FROM generate_series(0, ${payouts - 1}) AS s(i)`
      : `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${payouts - 1}) ${payoutsInto} ${payoutRows} FROM s`;
  return [entries, payoutSql];
}
