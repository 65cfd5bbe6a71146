import { join } from 'node:path';
import Fastify from 'fastify';
import SQLite from 'better-sqlite3';
import { AddCustomerBody, CustomerAnswer } from '../server/schemas/customers.ts';
import { digest, newId } from '../server/secrets.ts';

/**
 * The least this stack can do for POST /customers/add: Fastify validating the same body schema and serializing the
 * same answer, one lookup of the merchant by its key's digest and one insert with better-sqlite3, the inserts of an
 * event-loop turn committed together. No authentication, no hooks, no envelope errors, no savepoints, and no fsync
 * (WAL with synchronous=NORMAL): what the service does beyond this is its own cost. Serves a copy of the service's
 * database (PAYKIT_DATA_DIR), so the bench's merchant key finds its merchant. For bench/cpu-per-request.ts.
 */
const db = new SQLite(join(process.env.PAYKIT_DATA_DIR!, 'paykit.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
const findMerchant = db.prepare('SELECT id FROM merchants WHERE merchant_key_hash = ?');
const insertCustomer = db.prepare(
  'INSERT INTO customers (id, merchant_id, first_name, last_name, email, phone, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
);

let committed: Promise<void> | undefined;
/** Runs `write` in the transaction of this event-loop turn; resolves once that transaction committed. */
function grouped(write: () => void): Promise<void> {
  if (!committed) {
    db.exec('BEGIN');
    committed = new Promise((resolve) => setImmediate(() => {
      db.exec('COMMIT');
      committed = undefined;
      resolve();
    }));
  }
  write();
  return committed;
}

const app = Fastify();
app.post('/api/v1/customers/add', { schema: { body: AddCustomerBody, response: { 200: CustomerAnswer } } }, async (request) => {
  const body = request.body as { merchant_key: string; first_name: string; last_name: string; email?: string; phone_number?: string };
  const merchant = findMerchant.get(digest(body.merchant_key)) as { id: string } | undefined;
  if (!merchant) throw Object.assign(new Error('No such merchant.'), { statusCode: 404 });
  const id = newId('c_');
  const [email, phone] = [body.email ?? '', body.phone_number ?? ''];
  await grouped(() => insertCustomer.run(id, merchant.id, body.first_name, body.last_name, email, phone, new Date().toISOString()));
  return { result: true, message: 'Customer created.', data: { customer_email: email, customer_id: id, customer_phone: phone } };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
