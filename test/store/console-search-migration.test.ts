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
import { ConsoleListingRepository } from '../../server/store/console-listing.ts';
import { searchTerms } from '../../server/domain/console.ts';

const AT = '2026-11-01T10:00:00.000Z';

/** Rows written before migration 019 are found by the console's new indexes once it ran: building them filled them. */
for (const database of testDatabases()) {
  describe(`migration 019, the console's states and search keys for rows already there (${database})`, () => {
    let db: Kysely<any>;
    let close: () => Promise<void>;
    before(async () => {
      let migrator: Migrator;
      if (database === 'sqlite') {
        const dir = mkdtempSync(join(tmpdir(), 'paykit-019-'));
        db = new Kysely<any>({ dialect: (await openSqlite(dir)).dialect });
        migrator = new Migrator({ db, provider: migrationProvider('sqlite') });
        close = async () => {
          await db.destroy();
          rmSync(dir, { recursive: true, force: true });
        };
      } else {
        const schema = `t_${randomBytes(6).toString('hex')}`;
        db = new Kysely<any>({
          dialect: new PostgresDialect({
            pool: new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2, options: `-c search_path=${schema}` }),
          }),
        });
        await sql.raw(`CREATE SCHEMA ${schema}`).execute(db);
        migrator = new Migrator({ db, provider: migrationProvider('postgres'), migrationTableSchema: schema });
        close = async () => {
          await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(db);
          await db.destroy();
        };
      }
      const { error } = await migrator.migrateTo('018-onboarding-links-per-browser');
      if (error) throw error;
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
      await db
        .insertInto('payment_requests')
        .values({
          id: 'lnk_1',
          client_id: 'c_1',
          merchant_id: 'm_1',
          customer_id: null,
          token_hash: 'tok_1',
          source: 'pay_link',
          order_id: 'Order-7',
          amount: 1000,
          discount: 0,
          surcharge: 0,
          tax: 0,
          description: '',
          invoice_number: '',
          customer_name: '',
          email: 'Ann@Shop.example',
          phone: '',
          preauth: 0,
          pass_fee: 0,
          require_3ds: 0,
          allow_card: 1,
          allow_ach: 1,
          sub_merchant_key: null,
          sales_id: 'txn_1',
          status: 'paid',
          transaction_id: 'txn_1',
          expires_at: AT,
          created_at: AT,
          paid_at: AT,
        })
        .execute();
      const sale = (n: number, refunded: number, request: string | null) => ({
        id: `txn_${n}`,
        client_id: 'c_1',
        merchant_id: 'm_1',
        customer_id: null,
        request_id: request,
        parent_id: null,
        kind: 'sale',
        method: 'card',
        status: 'completed',
        source: 'pay_link',
        order_id: `Order-${6 + n}`,
        amount: 1000,
        fee_amount: 32,
        net_amount: 968,
        refunded_amount: refunded,
        card_brand: 'Visa',
        last_four: '4242',
        auth_code: 'A1',
        gateway_ref: `gw_${n}`,
        created_at: AT,
        completed_at: AT,
        settled_at: null,
      });
      await db
        .insertInto('transactions')
        .values([sale(1, 0, 'lnk_1'), sale(2, 250, null), sale(3, 0, null)])
        .execute();
      const latest = await migrator.migrateToLatest();
      if (latest.error) throw latest.error;
    });
    after(() => close());

    const listing = () => new ConsoleListingRepository(db, database);
    const ids = async (filter: Parameters<ConsoleListingRepository['page']>[1]) =>
      (await listing().page('m_1', filter, { by: 'date', direction: 'desc' }, 20, { offset: 0 })).items
        .map((t) => t.id)
        .sort();

    test('a sale refunded before it is refunded after; the others completed', async () => {
      assert.deepEqual(await ids({ status: 'refunded' }), ['txn_2']);
      assert.deepEqual(await ids({ status: 'completed' }), ['txn_1', 'txn_3']);
    });

    test('order ids in any case and the e-mail a pay link was sent to', async () => {
      assert.deepEqual(await ids({ search: searchTerms('order-8') }), ['txn_2']);
      assert.deepEqual(await ids({ search: searchTerms('ann@shop.EXAMPLE') }), ['txn_1']);
    });
  });
}
