import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startService, type TestService } from '../support/service.ts';

let service: TestService;
before(async () => (service = await startService()));
after(() => service.close());

test('hosted pages are sent compressed to browsers that take it (brotli, else gzip), and plain to the others', async () => {
  const plain = await service.request('GET', '/portal');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.match(plain.text, /^<!doctype html>/);
  assert.equal(plain.headers.vary, 'Accept-Encoding');

  const br = await service.request('GET', '/portal', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(brotliDecompressSync(br.bytes).toString(), plain.text);
  assert.ok(br.bytes.length < plain.bytes.length / 2, `${br.bytes.length} of ${plain.bytes.length} bytes`);

  const gzip = await service.request('GET', '/portal', { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(gzip.bytes).toString(), plain.text);
  assert.match(String(gzip.headers['content-security-policy']), /default-src 'none'/, 'the page policy still holds');
});

test('the service has a favicon, so no browser console shows a 404 for it', async () => {
  const icon = await service.request('GET', '/favicon.ico');
  assert.equal(icon.status, 200);
  assert.equal(icon.headers['content-type'], 'image/x-icon');
  // An ICO directory of one image, holding a PNG.
  assert.deepEqual([...icon.bytes.subarray(0, 6)], [0, 0, 1, 0, 1, 0]);
  assert.equal(icon.bytes.subarray(23, 26).toString(), 'PNG');
});
