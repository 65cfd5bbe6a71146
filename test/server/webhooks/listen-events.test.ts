/**
 * GET /sandbox/events, what `paykit listen` reads: a client's events in the order they were written, after a cursor,
 * waiting for the next; none missed between two reads, whatever was written between them; on both databases.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, partnerClient } from '../../support/payments.ts';
import { waitUntil } from '../../support/wait.ts';

for (const database of testDatabases()) {
  describe(`GET /sandbox/events (${database})`, () => {
    let service: TestService;
    before(async () => {
      service = await startService({ database });
    });
    after(() => service.close());

    type Read = { events: { event_id: string; event_type: string; data: Record<string, unknown> }[]; cursor: string };
    const read = async (query: string): Promise<Read> => {
      const answer = await service.api('GET', `/sandbox/events${query}`);
      assert.equal(answer.status, 200, answer.text);
      return answer.body.data;
    };
    /**
     * Reads on from `cursor` as a listener does until `count` events came. On PostgreSQL a transaction open anywhere
     * on the server (another test's) holds an event back until it ends: one read may not have them all yet.
     */
    const readUntil = async (cursor: string, count: number): Promise<Read> => {
      const got: Read = { events: [], cursor };
      await waitUntil(
        async () => {
          const more = await read(`?after=${got.cursor}&wait=2`);
          got.events.push(...more.events);
          got.cursor = more.cursor;
          return got.events.length >= count;
        },
        { what: `${count} events`, timeoutMs: 60_000 },
      );
      return got;
    };

    test('without a cursor: no event and the cursor of now; after it, what was written since, in order, and nothing twice', async () => {
      await approvedMerchant(service);
      const start = await read('');
      assert.deepEqual(start.events, [], 'what was written before a listener started is not its');
      const { merchantId } = await approvedMerchant(service);
      const since = await readUntil(start.cursor, 4);
      assert.deepEqual(
        since.events.map((e) => e.event_type),
        ['merchant.onboarding', 'merchant_status', 'merchant.approval', 'merchant_status'],
      );
      assert.ok(since.events.every((e) => e.data.merchant_id === merchantId));
      const stored = (await service.store.events.listForClient(service.client.clientId)).slice(-4);
      assert.deepEqual(
        since.events.map((e) => e.event_id),
        stored.map((e) => e.id),
        'each is named by its event id, as its deliveries are',
      );
      assert.equal(since.events[0]!.data.merchant_key, stored[0]!.data.merchant_key, 'the data as stored');
      assert.deepEqual((await read(`?after=${since.cursor}&wait=1`)).events, [], 'nothing twice');
      // Another client's events are not this one's.
      const other = await service.newClient('Other partner');
      await approvedMerchant(service, { id: other.clientId, secret: other.secretKey });
      assert.deepEqual((await read(`?after=${since.cursor}&wait=1`)).events, []);
    });

    test('a read that waits answers as soon as an event is written, and the wait is bounded', async () => {
      const { cursor } = await read('');
      const started = Date.now();
      const waiting = read(`?after=${cursor}&wait=25`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await partnerClient(service).sandbox.advanceClock(1);
      await approvedMerchant(service);
      const { events } = await waiting;
      assert.equal(events[0]?.event_type, 'merchant.onboarding');
      assert.ok(Date.now() - started < 20_000, 'answered when the event came, not at the end of the wait');
      const quiet = Date.now();
      const none = await read(`?after=${(await read('')).cursor}&wait=1`);
      assert.deepEqual(none.events, []);
      assert.ok(Date.now() - quiet >= 900, 'with nothing written, it answers at the end of its wait');
    });

    test('a bad cursor or wait is a 400 that says what to send; production has no such call', async () => {
      for (const [query, message] of [
        ['?after=abc', /after must be the cursor an earlier answer of this call gave/],
        ['?after=1.2.3', /after must be the cursor/],
        ['?after=9999999999999999999.1', /after must be the cursor/],
        ['?wait=26', /wait must be <= 25/],
        ['?wait=-1', /wait must be >= 0/],
      ] as const) {
        const answer = await service.api('GET', `/sandbox/events${query}`);
        assert.equal(answer.status, 400, query);
        assert.match(answer.body.message, message);
      }
      const production = await startService({ environment: 'production' });
      try {
        const refused = await production.api('GET', '/sandbox/events');
        assert.deepEqual([refused.status, refused.body.code], [403, 'forbidden']);
      } finally {
        await production.close();
      }
    });

    test('closing the service answers a waiting read at once', async () => {
      const closing = await startService({ database });
      const { cursor } = (await closing.api('GET', '/sandbox/events')).body.data;
      const waiting = closing.api('GET', `/sandbox/events?after=${cursor}&wait=25`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = Date.now();
      await closing.close();
      assert.deepEqual((await waiting).body.data.events, []);
      assert.ok(Date.now() - started < 15_000, `closed in ${Date.now() - started} ms, not at the end of the 25 s wait`);
    });

    test('a listener starts from its present: an event committed before it is not its, though an older transaction is still open', async () => {
      const clientId = service.client.clientId;
      const now = service.clock.now();
      const approval = (merchant_id: string) => ({
        merchant_id,
        business_name: merchant_id,
        email: 'a@example.com',
        company_id: '',
      });
      let end!: () => void;
      const held = new Promise<void>((resolve) => (end = resolve));
      let written!: () => void;
      const opened = new Promise<void>((resolve) => (written = resolve));
      // An older transaction (another client's write) stays open while this client's event commits.
      const other = await service.newClient('Open elsewhere');
      const older = service.store.transaction(async (tx) => {
        await tx.events.add(other.clientId, 'merchant.approval', approval('m_other'), now);
        written();
        await held;
      });
      await opened;
      if (database === 'sqlite') {
        end();
        await older;
      }
      let start: Read;
      try {
        await service.store.events.add(clientId, 'merchant.approval', approval('m_before'), now);
        start = await read('');
      } finally {
        end();
        await older;
      }
      await service.store.events.add(clientId, 'merchant.approval', approval('m_after'), now);
      const since = await readUntil(start.cursor, 1);
      assert.deepEqual(
        since.events.map((e) => e.data.merchant_id),
        ['m_after'],
      );
      assert.deepEqual((await read(`?after=${since.cursor}&wait=1`)).events, []);
    });

    test('an event written by a transaction that commits after a later one is listed all the same (PostgreSQL commits out of seq order)', async () => {
      const { cursor } = await read('');
      const clientId = service.client.clientId;
      const now = service.clock.now();
      let commitFirst!: () => void;
      const held = new Promise<void>((resolve) => (commitFirst = resolve));
      let written!: () => void;
      const firstWritten = new Promise<void>((resolve) => (written = resolve));
      // The first event takes its seq in a transaction that stays open while a second one commits.
      const first = service.store.transaction(async (tx) => {
        await tx.events.add(
          clientId,
          'merchant.approval',
          { merchant_id: 'm_first', business_name: 'First', email: 'a@example.com', company_id: '' },
          now,
        );
        written();
        await held;
      });
      await firstWritten;
      if (database === 'sqlite') {
        // One writer: the second waits for the first, so seq is commit order. Let the first commit.
        commitFirst();
        await first;
      }
      let during;
      try {
        await service.store.events.add(
          clientId,
          'merchant.approval',
          { merchant_id: 'm_second', business_name: 'Second', email: 'b@example.com', company_id: '' },
          now,
        );
        during = await read(`?after=${cursor}`);
      } finally {
        commitFirst();
        await first;
      }
      const seen = during.events.map((e) => e.data.merchant_id);
      if (database === 'postgres')
        assert.deepEqual(seen, [], 'the second is listed once the first ended, so the cursor cannot pass the first');
      const rest = await readUntil(during.cursor, 2 - seen.length);
      assert.deepEqual(
        [...seen, ...rest.events.map((e) => e.data.merchant_id)].sort(),
        ['m_first', 'm_second'],
        'both, once each',
      );
      assert.deepEqual((await read(`?after=${rest.cursor}&wait=1`)).events, []);
    });
  });
}
