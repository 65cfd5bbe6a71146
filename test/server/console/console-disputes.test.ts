import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type TestService } from '../../support/service.ts';
import { approvedMerchant, paidSale } from '../../support/payments.ts';
import { testDatabases } from '../../support/databases.ts';
import { consoleCall, consoleSession } from '../../support/console.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const HTML = Buffer.from('<!doctype html><script>alert(1)</script>');
const file = (filename: string, bytes: Buffer) => ({ filename, content_base64: bytes.toString('base64') });

/** The console's disputes (issue 46): the API's rules with a session token, for its merchant only. */
for (const database of testDatabases()) {
  describe(`the console's disputes (${database})`, () => {
    let service: TestService;
    before(async () => {
      service = await startService({ database });
    });
    after(() => service.close());

    /** A merchant with a disputed card sale, and a session granting disputes. */
    const disputed = async (amount = '40.00', reason = 'product_not_received') => {
      const m = await approvedMerchant(service);
      const sale = await paidSale(service, m.merchantKey, amount);
      const opened = await service.api('POST', '/sandbox/disputes', {
        json: { merchant_key: m.merchantKey, transaction_id: sale, reason },
      });
      assert.equal(opened.status, 200, opened.text);
      const { session_token } = await consoleSession(service, m.merchantKey, { disputes: true });
      return { ...m, sale, disputeId: opened.body.data.dispute_id as string, token: session_token };
    };
    const call = (token: string, method: string, path: string, json?: unknown, key?: string) =>
      service.request(method, `/api/v1/widgets/disputes${path}`, {
        headers: { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
        ...(json !== undefined ? { json } : {}),
      });
    const stored = async (m: { merchantId: string; disputeId: string }) => ({
      dispute: await service.store.disputes.find(m.merchantId, m.disputeId),
      files: await service.store.disputes.files(m.merchantId, m.disputeId),
    });

    test('the list marks the disputed sale and filters by "disputed"; the panel reads, saves, and submits', async () => {
      const m = await disputed('40.00');
      await paidSale(service, m.merchantKey, '12.00');
      const list = consoleCall(service, m.token);
      const all = await list('GET', '');
      assert.equal(all.status, 200, all.text);
      assert.equal(all.body.data.features.disputes, true);
      const row = all.body.data.items.find((t: { transaction_id: string }) => t.transaction_id === m.sale);
      assert.equal(row.dispute_id, m.disputeId, 'the row carries its dispute');
      assert.equal(all.body.data.items.filter((t: { dispute_id: string | null }) => t.dispute_id).length, 1);
      const only = await list('GET', '?status=disputed');
      assert.equal(only.status, 200, only.text);
      assert.deepEqual(
        only.body.data.items.map((t: { transaction_id: string }) => t.transaction_id),
        [m.sale],
      );
      assert.equal(only.body.data.totalCount, 1);
      const byAmount = await list('GET', '?status=disputed&sort=amount&order=asc');
      assert.deepEqual(
        byAmount.body.data.items.map((t: { transaction_id: string }) => t.transaction_id),
        [m.sale],
      );
      assert.equal((await list('GET', '?status=disputed&kind=refund')).body.data.items.length, 0);
      assert.equal((await list('GET', '?status=disputed&q=40.00')).body.data.items.length, 1);
      assert.equal((await list('GET', '?status=disputed&q=12.00')).body.data.items.length, 0);

      const listed = await call(m.token, 'GET', '');
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(
        listed.body.data.items.map((d: { dispute_id: string }) => d.dispute_id),
        [m.disputeId],
      );
      const one = await call(m.token, 'GET', `/${m.disputeId}`);
      assert.equal(one.status, 200, one.text);
      assert.equal(one.body.data.reason, 'product_not_received');
      assert.equal(one.body.data.amount, '40.00');
      assert.equal(one.body.data.fee, '15.00');

      const saved = await call(m.token, 'POST', `/${m.disputeId}/evidence`, {
        explanation: 'Delivered and signed for.',
        shipping_carrier: 'UPS',
        files: [file('receipt.pdf', PDF), file('photo.png', PNG)],
      });
      assert.equal(saved.status, 200, saved.text);
      assert.deepEqual(
        saved.body.data.files.map((f: { content_type: string }) => f.content_type),
        ['application/pdf', 'image/png'],
      );
      const fileId = saved.body.data.files[0].file_id;
      const served = await call(m.token, 'GET', `/${m.disputeId}/files/${fileId}`);
      assert.equal(served.status, 200, served.text);
      assert.deepEqual(Buffer.from(served.body.data.content_base64, 'base64'), PDF);

      const submitted = await call(m.token, 'POST', `/${m.disputeId}/submit`, undefined, `submit-${m.disputeId}`);
      assert.equal(submitted.status, 200, submitted.text);
      assert.equal(submitted.body.data.status, 'under_review');
      const events = await service.store.events.listForClient(service.client.clientId);
      assert.ok(events.some((e) => e.event_type === 'dispute.updated' && JSON.stringify(e.data).includes(m.disputeId)));
      const later = await call(m.token, 'POST', `/${m.disputeId}/evidence`, { explanation: 'more' });
      assert.equal(later.status, 409, 'nothing after submission');
    });

    test("a token without disputes: 403 on every call, nothing changed; other merchants' disputes: 403 or 404", async () => {
      const m = await disputed();
      const before = await stored(m);
      const { session_token: readOnly } = await consoleSession(service, m.merchantKey, {
        refunds: true,
        payouts: true,
      });
      for (const [method, path, body] of [
        ['GET', '', undefined],
        ['GET', `/${m.disputeId}`, undefined],
        ['POST', `/${m.disputeId}/evidence`, { explanation: 'mine' }],
        ['POST', `/${m.disputeId}/submit`, undefined],
        ['POST', `/${m.disputeId}/accept`, undefined],
      ] as const) {
        const answer = await call(readOnly, method, path, body);
        assert.equal(answer.status, 403, `${method} ${path}: ${answer.text}`);
        assert.equal(answer.body.code, 'forbidden');
        assert.match(answer.body.message, /features\.disputes/);
      }
      const noToken = await service.request('GET', '/api/v1/widgets/disputes');
      assert.equal(noToken.status, 401);

      // A sibling merchant of the same partner, with disputes granted: 403; another partner's merchant: 404.
      const sibling = await disputed();
      const stranger = await service.newClient('Another platform');
      const theirs = await approvedMerchant(service, { id: stranger.clientId, secret: stranger.secretKey });
      const { session_token: strangerToken } = await consoleSession(
        {
          ...service,
          api: (method, path, options) =>
            service.api(method, path, { ...options, auth: { id: stranger.clientId, secret: stranger.secretKey } }),
        } as TestService,
        theirs.merchantKey,
        { disputes: true },
      );
      for (const [token, status] of [
        [sibling.token, 403],
        [strangerToken, 404],
      ] as const) {
        assert.equal((await call(token, 'GET', `/${m.disputeId}`)).status, status);
        assert.equal((await call(token, 'POST', `/${m.disputeId}/evidence`, { explanation: 'mine' })).status, status);
        assert.equal((await call(token, 'POST', `/${m.disputeId}/accept`)).status, status);
        const listed = await call(token, 'GET', '');
        assert.ok(!listed.body.data.items.some((d: { dispute_id: string }) => d.dispute_id === m.disputeId));
      }
      assert.deepEqual(await stored(m), before, 'nothing changed');
    });

    test('bad files: lying types, SVG and HTML named .png, path characters, over 5 MB, 50 MB, an 11th file: 4xx, nothing stored', async () => {
      const m = await disputed();
      const before = await stored(m);
      const upload = (files: unknown[], extra: Record<string, unknown> = {}) =>
        call(m.token, 'POST', `/${m.disputeId}/evidence`, { explanation: 'beside a bad file', ...extra, files });
      const oversize = Buffer.alloc(5 * 1024 * 1024 + 1, 0);
      PDF.copy(oversize);
      for (const [files, pattern] of [
        [[file('image.png', SVG)], /not a PDF, PNG or JPEG/],
        [[file('page.png', HTML)], /not a PDF, PNG or JPEG/],
        [[file('receipt.png', PDF)], /does not match its bytes/],
        [[file('../../etc/passwd.pdf', PDF)], /without slashes/],
        [[file('C:\\evil.pdf', PDF)], /without slashes/],
        [[file('ok.pdf', PDF), file('bad.png', SVG)], /bad\.png/],
        [[file('big.pdf', oversize)], /over 5 MB|too large|larger/i],
      ] as const) {
        const answer = await upload([...files]);
        assert.ok([400, 413].includes(answer.status), answer.text);
        assert.equal(answer.body.result, false);
        assert.match(answer.body.message, pattern);
      }
      const huge = await service.request('POST', `/api/v1/widgets/disputes/${m.disputeId}/evidence`, {
        raw: Buffer.concat([
          Buffer.from('{"files":[{"filename":"a.pdf","content_base64":"'),
          Buffer.alloc(50 * 1024 * 1024, 0x41),
          Buffer.from('"}]}'),
        ]),
        headers: { authorization: `Bearer ${m.token}`, 'content-type': 'application/json' },
      });
      assert.equal(huge.status, 413, 'a 50 MB upload is refused');
      assert.equal(huge.body.result, false);
      assert.deepEqual(await stored(m), before, 'nothing stored, not even the text beside a bad file');

      const ten = Array.from({ length: 10 }, (_, i) => file(`page-${i}.pdf`, PDF));
      assert.equal((await upload(ten.slice(0, 5))).status, 200);
      assert.equal((await upload(ten.slice(5))).status, 200);
      const eleventh = await upload([file('page-10.pdf', PDF)]);
      assert.equal(eleventh.status, 400);
      assert.match(eleventh.body.message, /at most 10 files/);
      assert.equal((await stored(m)).files.length, 10);
    });

    test('an accept retried with its Idempotency-Key is replayed: one closing, one set of events; a new key is a 409', async () => {
      const m = await disputed('25.00');
      const count = async () =>
        (await service.store.events.listForClient(service.client.clientId)).filter((e) =>
          JSON.stringify(e.data).includes(m.disputeId),
        ).length;
      const eventsBefore = await count();
      const key = `accept-${m.disputeId}`;
      const first = await call(m.token, 'POST', `/${m.disputeId}/accept`, undefined, key);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.data.status, 'lost');
      const eventsAfter = await count();
      assert.ok(eventsAfter > eventsBefore);
      const replay = await call(m.token, 'POST', `/${m.disputeId}/accept`, undefined, key);
      assert.equal(replay.status, 200);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.deepEqual(replay.body, first.body);
      assert.equal(await count(), eventsAfter, 'no second effect');
      const again = await call(m.token, 'POST', `/${m.disputeId}/accept`, undefined, `${key}-2`);
      assert.equal(again.status, 409);
      assert.match(again.body.message, /lost/);

      const saveKey = `save-${m.disputeId}`;
      const n = await disputed();
      const save = () => call(n.token, 'POST', `/${n.disputeId}/evidence`, { files: [file('a.pdf', PDF)] }, saveKey);
      assert.equal((await save()).status, 200);
      assert.equal((await save()).headers['idempotent-replayed'], 'true');
      assert.equal((await stored(n)).files.length, 1, 'the file stored once');
    });
  });
}
