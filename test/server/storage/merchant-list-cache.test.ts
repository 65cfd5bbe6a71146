import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type TestService } from '../../support/service.ts';
import { validApplication } from '../../support/fixtures.ts';
import { openStore } from '../../../server/store/open.ts';
import type { Store } from '../../../server/store/store.ts';
import { send } from '../../support/http.ts';

/**
 * GET /merchant keeps its answer while nothing is committed to the embedded database (plugins/unchanged-answers.ts).
 * What is kept must never outlive a change: not the service's own, not one another process commits to the same file.
 */
let dir: string;
let service: TestService;
let elsewhere: Store;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paykit-list-'));
  service = await startService({ dataDir: dir });
  // A second connection to the same file, as the operator CLI or a second service process has.
  elsewhere = await openStore({ dataDir: dir });
});
after(async () => {
  await elsewhere.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const listed = async (headers: Record<string, string> = {}) => service.api('GET', '/merchant', { headers });

test('an unchanged list is the same answer, with the same ETag and 304 for it', async () => {
  await service.api('POST', '/onboarding', { json: validApplication({ BusinessInfo: { business_name: 'Kept Ltd' } }) });
  const first = await listed();
  const second = await listed();
  assert.equal(second.text, first.text);
  assert.equal(second.headers.etag, first.headers.etag);
  assert.equal(second.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(second.headers['cache-control'], 'private, no-cache');
  assert.equal((await listed({ 'if-none-match': String(first.headers.etag) })).status, 304);
});

test("the service's own change shows at once", async () => {
  const before = await listed();
  const created = await service.api('POST', '/onboarding', {
    json: validApplication({ BusinessInfo: { business_name: 'New Ltd' } }),
  });
  const after = await listed({ 'if-none-match': String(before.headers.etag) });
  assert.equal(after.status, 200);
  assert.equal(after.body.data[0].merchant_id, created.body.data.merchant_id);
});

test('a change another process commits to the same database shows at the next call', async () => {
  const before = await listed();
  const merchantId = before.body.data[0].merchant_id as string;
  await elsewhere.merchants.update(merchantId, { business_name: 'Renamed elsewhere' });
  const after = await listed({ 'if-none-match': String(before.headers.etag) });
  assert.equal(after.status, 200);
  assert.equal(after.body.data[0].businessname, 'Renamed elsewhere');
  assert.notEqual(after.headers.etag, before.headers.etag);
});

test("a client never gets another client's kept list", async () => {
  assert.ok((await listed()).body.data.length >= 2);
  const other = await service.newClient('Other partner');
  const auth = { id: other.clientId, secret: other.secretKey };
  for (let i = 0; i < 2; i++) {
    const answer = await send(service.baseUrl, 'GET', '/api/v1/merchant', { auth });
    assert.deepEqual(answer.body.data, []);
  }
});
