import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import { TEST_DATABASE_URL, testDatabases } from '../support/databases.ts';
import { migrationProvider } from '../../server/store/migrations/index.ts';
import { openSqlite } from '../../server/store/sqlite/open-sqlite.ts';

/** The tables migrations 009-011 rebuild or re-index, each with the column that orders its rows. */
const TABLES = {
  payment_requests: 'id',
  payment_attempts: 'token_hash',
  messages: 'seq',
  merchant_orders: 'order_id',
  events: 'seq',
  customers: 'seq',
  transactions: 'seq',
} as const;
const AT = '2026-11-01T10:00:00.000Z';

/** A database of each kind, migrated up to 008 and holding a row or two of every table that 009-011 change. */
async function openAt008(database: 'sqlite' | 'postgres') {
  if (database === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'paykit-009-'));
    const sqlite = await openSqlite(dir);
    const db = new Kysely<any>({ dialect: sqlite.dialect });
    return {
      db,
      dir,
      migrator: new Migrator({ db, provider: migrationProvider('sqlite') }),
      close: async () => {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = new Kysely<any>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2, options: `-c search_path=${schema}` }),
    }),
  });
  await sql.raw(`CREATE SCHEMA ${schema}`).execute(db);
  return {
    db,
    dir: undefined,
    migrator: new Migrator({ db, provider: migrationProvider('postgres'), migrationTableSchema: schema }),
    close: () => db.destroy(),
  };
}

async function seed(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('clients')
    .values({ id: 'c_1', name: 'Partner', secret_hash: '0'.repeat(64), public_key: 'pk_c_1', created_at: AT })
    .execute();
  await db
    .insertInto('merchants')
    .values({
      id: 'm_1',
      client_id: 'c_1',
      company_id: null,
      status: 'completed',
      business_name: 'Shop',
      email: 'shop@example.com',
      first_name: 'A',
      last_name: 'B',
      phone: '+14155550100',
      website: '',
      merchant_key_hash: 'f'.repeat(64),
      public_key: 'pk_1',
      application: null,
      created_at: AT,
      submitted_at: AT,
      approved_at: AT,
    })
    .execute();
  const request = (n: number) => ({
    id: `lnk_${n}`,
    client_id: 'c_1',
    merchant_id: 'm_1',
    customer_id: null,
    token_hash: `tok_${n}`,
    source: 'pay_link',
    order_id: `o${n}`,
    amount: 2500 + n,
    discount: 0,
    surcharge: 0,
    tax: 0,
    description: '',
    invoice_number: '',
    customer_name: '',
    email: 'payer@example.com',
    phone: '',
    preauth: 0,
    pass_fee: 0,
    require_3ds: 0,
    allow_card: 1,
    allow_ach: 1,
    sub_merchant_key: null,
    sales_id: `txn_${n}`,
    status: 'open',
    transaction_id: null,
    expires_at: AT,
    created_at: AT,
    paid_at: null,
  });
  await db
    .insertInto('payment_requests')
    .values([request(1), request(2)])
    .execute();
  await db
    .insertInto('payment_attempts')
    .values({
      token_hash: 'att_1',
      request_id: 'lnk_1',
      card_brand: 'visa',
      last_four: '4242',
      exp_month: 12,
      exp_year: 2035,
      outcome: 'approved',
      expires_at: AT,
      used_at: null,
    })
    .execute();
  const message = (n: number, channel: string, recipient: string) => ({
    id: `msg_${n}`,
    client_id: 'c_1',
    merchant_id: 'm_1',
    channel,
    recipient,
    body: `body ${n}`,
    pay_link: 'https://pay.example/x',
    created_at: AT,
  });
  await db
    .insertInto('messages')
    .values([
      message(1, 'sms', '+14155550123'),
      message(2, 'email', 'payer@example.com'),
      message(3, 'sms', '+14155550123'),
    ])
    .execute();
  await db
    .insertInto('merchant_orders')
    .values([
      { merchant_id: 'm_1', order_id: 'o1', source: 'pay_link', created_at: AT },
      { merchant_id: 'm_1', order_id: 'o2', source: 'pay_link', created_at: AT },
    ])
    .execute();
  const customer = (n: number) => ({
    id: `c_${n}`,
    merchant_id: 'm_1',
    first_name: 'Jo',
    last_name: `Doe ${n}`,
    email: `jo${n}@example.com`,
    phone: '',
    created_at: AT,
  });
  await db
    .insertInto('customers')
    .values([customer(1), customer(2)])
    .execute();
  const transaction = (n: number, kind: string, parent: string | null) => ({
    id: `txn_${n}`,
    client_id: 'c_1',
    merchant_id: 'm_1',
    customer_id: null,
    request_id: null,
    parent_id: parent,
    kind,
    method: 'card',
    status: 'completed',
    source: 'pay_link',
    order_id: `o${n}`,
    amount: 1000,
    fee_amount: 0,
    net_amount: 1000,
    refunded_amount: 0,
    card_brand: 'visa',
    last_four: '4242',
    auth_code: 'A1',
    gateway_ref: `gw_${n}`,
    created_at: AT,
    completed_at: AT,
    settled_at: null,
  });
  await db
    .insertInto('transactions')
    .values([transaction(1, 'authorization', null), transaction(2, 'sale', 'txn_1'), transaction(3, 'refund', 'txn_2')])
    .execute();
  await db
    .insertInto('events')
    .values([
      {
        id: 'evt_1',
        client_id: 'c_1',
        event_type: 'merchant.onboarding',
        data: '{"merchant_key":"mk"}',
        created_at: AT,
        holds_secret: 1,
      },
      { id: 'evt_2', client_id: 'c_1', event_type: 'payment.refund', data: '{}', created_at: AT, holds_secret: 0 },
    ])
    .execute();
}

const rowsOf = async (db: Kysely<any>) =>
  Object.fromEntries(
    await Promise.all(
      Object.entries(TABLES).map(async ([table, order]) => [
        table,
        await db.selectFrom(table).selectAll().orderBy(order).execute(),
      ]),
    ),
  );

async function indexesOf(db: Kysely<any>, database: 'sqlite' | 'postgres', table: string): Promise<string[]> {
  const rows =
    database === 'sqlite'
      ? (
          await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(db)
        ).rows
      : (
          await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = ${table}`.execute(
            db,
          )
        ).rows;
  return rows.map((row) => row.name).sort();
}

for (const database of testDatabases()) {
  describe(`migrations 009-011, fewer index writes (${database})`, () => {
    let opened: Awaited<ReturnType<typeof openAt008>>;
    let before009: Record<string, unknown[]>;
    let after011: Record<string, unknown[]>;
    before(async () => {
      opened = await openAt008(database);
      const { error } = await opened.migrator.migrateTo('008-one-order-index');
      if (error) throw error;
      await seed(opened.db);
      before009 = await rowsOf(opened.db);
      // The rows as 009-011 leave them (a later migration may add a column, e.g. 021 the events' txid).
      const through011 = await opened.migrator.migrateTo('011-customers-without-autoincrement');
      if (through011.error) throw through011.error;
      after011 = await rowsOf(opened.db);
      const latest = await opened.migrator.migrateToLatest();
      if (latest.error) throw latest.error;
    });
    after(() => opened.close());

    test('keeps every row of the tables it rebuilds, as it was', () => {
      assert.deepEqual(after011, before009);
    });

    test('keeps the indexes that queries read and drops the others', async () => {
      const { db } = opened;
      if (database === 'sqlite') {
        assert.deepEqual(await indexesOf(db, database, 'payment_requests'), [
          'payment_requests_by_email',
          'payment_requests_by_merchant',
          'sqlite_autoindex_payment_requests_1',
          'sqlite_autoindex_payment_requests_2',
        ]);
        assert.deepEqual(await indexesOf(db, database, 'messages'), [
          'messages_by_client',
          'messages_emails_by_recipient',
          'messages_texts_by_recipient',
        ]);
        // WITHOUT ROWID: the primary key is the table, no index beside it.
        assert.deepEqual(await indexesOf(db, database, 'merchant_orders'), []);
        const [orders] = (
          await sql<{ wr: number }>`select wr from pragma_table_list where name = 'merchant_orders'`.execute(db)
        ).rows;
        assert.equal(orders?.wr, 1);
        for (const table of ['messages', 'customers']) {
          const definition = (
            await sql<{ sql: string }>`select sql from sqlite_master where name = ${table}`.execute(db)
          ).rows[0]!.sql;
          assert.doesNotMatch(definition, /autoincrement/i, table);
        }
        assert.deepEqual(await indexesOf(db, database, 'customers'), [
          'customers_by_merchant',
          'sqlite_autoindex_customers_1',
        ]);
      } else {
        assert.deepEqual(await indexesOf(db, database, 'payment_requests'), [
          'payment_requests_by_email',
          'payment_requests_by_merchant',
          'payment_requests_pkey',
          'payment_requests_token_hash_key',
        ]);
        assert.deepEqual(await indexesOf(db, database, 'messages'), [
          'messages_by_client',
          'messages_emails_by_recipient',
          'messages_pkey',
          'messages_texts_by_recipient',
        ]);
      }
      assert.ok((await indexesOf(db, database, 'events')).includes('events_holding_secrets'));
      const transactionIndexes = await indexesOf(db, database, 'transactions');
      assert.ok(
        transactionIndexes.includes('transactions_captures') && !transactionIndexes.includes('transactions_by_parent'),
        String(transactionIndexes),
      );
    });

    test('the new ids keep counting from where the old ones were, and customers stay unique by id', async () => {
      const { db } = opened;
      await db
        .insertInto('messages')
        .values({
          id: 'msg_4',
          client_id: 'c_1',
          merchant_id: 'm_1',
          channel: 'sms',
          recipient: '+14155550123',
          body: 'body 4',
          pay_link: 'https://pay.example/x',
          created_at: AT,
        })
        .execute();
      const seqs = (await db.selectFrom('messages').select('seq').orderBy('seq').execute()).map((row) =>
        Number(row.seq),
      );
      assert.deepEqual(seqs, [1, 2, 3, 4]);
      await db
        .insertInto('customers')
        .values({
          id: 'c_3',
          merchant_id: 'm_1',
          first_name: 'Jo',
          last_name: 'Doe 3',
          email: 'jo3@example.com',
          phone: '',
          created_at: AT,
        })
        .execute();
      const customerSeqs = (await db.selectFrom('customers').select('seq').orderBy('seq').execute()).map((row) =>
        Number(row.seq),
      );
      assert.deepEqual(customerSeqs, [1, 2, 3]);
      await assert.rejects(
        db
          .insertInto('customers')
          .values({
            id: 'c_3',
            merchant_id: 'm_1',
            first_name: 'Jo',
            last_name: 'Again',
            email: 'jo@example.com',
            phone: '',
            created_at: AT,
          })
          .execute(),
        /unique|duplicate/i,
      );
    });

    test('a payment attempt still needs its pay link, and an order id its merchant once only', async () => {
      const { db } = opened;
      await assert.rejects(
        db
          .insertInto('payment_attempts')
          .values({
            token_hash: 'att_2',
            request_id: 'lnk_missing',
            card_brand: 'visa',
            last_four: '4242',
            exp_month: 12,
            exp_year: 2035,
            outcome: 'approved',
            expires_at: AT,
            used_at: null,
          })
          .execute(),
        /foreign key/i,
      );
      await assert.rejects(
        db
          .insertInto('merchant_orders')
          .values({ merchant_id: 'm_1', order_id: 'o1', source: 'pay_link', created_at: AT })
          .execute(),
        /unique|duplicate/i,
      );
      if (database === 'sqlite') {
        assert.deepEqual((await sql`pragma foreign_key_check`.execute(db)).rows, []);
        assert.deepEqual((await sql`pragma integrity_check`.execute(db)).rows, [{ integrity_check: 'ok' }]);
      }
    });
  });
}
