import Fastify from 'fastify';
import pg from 'pg';
import { floorStatements } from './pg-floor.ts';

/**
 * The HTTP floor of PostgreSQL writes (bench/pg-writes.ts): Fastify alone, answering JSON with the floor's statements
 * as issue 31's design sends them. A payment request is one statement; a refund reads its sale without a lock, then
 * writes in one statement. What the service spends beyond this (authentication, validation, the domain's decision,
 * Kysely, idempotency, the receipt) is its own cost; what this spends beyond the floor is HTTP's and the read's.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const statements = await floorStatements(pool);
const app = Fastify();
app.get('/health', async () => ({ ok: true }));
app.post('/requests', async () => ({
  result: true,
  id: (await pool.query(...statements.request())).rows[0].id as string,
}));
app.post('/refunds', async () => {
  const sale = (await pool.query('SELECT * FROM transactions WHERE id = $1', [statements.saleId])).rows[0] as {
    refunded_amount: string;
  };
  const written = await pool.query(...statements.refund());
  return { result: true, id: written.rows[0].id as string, refunded: Number(sale.refunded_amount) + 1 };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
