import { test } from 'node:test';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { createDeliverer } from '../../server/webhooks/deliver.ts';
import assert from 'node:assert/strict';
import { checkWebhookUrl, isPrivateAddress } from '../../server/webhooks/url-guard.ts';

test('private, loopback, link-local and reserved addresses are recognised', () => {
  for (const address of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fd12::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a00:1',
    'not-an-ip',
  ]) {
    assert.ok(isPrivateAddress(address), address);
  }
  for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:5db8:d822']) {
    assert.ok(!isPrivateAddress(address), address);
  }
});

test('names are checked by what they resolve to, every address of them', async () => {
  const resolve = async (host: string) =>
    ({
      'public.example': ['93.184.216.34'],
      'mixed.example': ['93.184.216.34', '10.0.0.5'],
      'inside.example': ['192.168.0.2'],
    })[host] ?? [];
  assert.equal(await checkWebhookUrl('https://public.example/h', false, resolve), null);
  assert.match(
    String(await checkWebhookUrl('https://mixed.example/h', false, resolve)),
    /mixed\.example is loopback, private or link-local/,
  );
  assert.match(
    String(await checkWebhookUrl('https://inside.example/h', false, resolve)),
    /must reach a public address/,
  );
  assert.match(
    String(
      await checkWebhookUrl('https://nowhere.example/h', false, async () => {
        throw new Error('ENOTFOUND');
      }),
    ),
    /does not resolve/,
  );
  assert.equal(await checkWebhookUrl('http://127.0.0.1:9/h', true), null, 'the sandbox allows loopback');
});

test('IPv6 forms that embed or reach private space are refused; global unicast is not', () => {
  for (const address of [
    '::127.0.0.1',
    '::10.0.0.1',
    '::8.8.8.8',
    '::ffff:0:127.0.0.1',
    '::ffff:0:10.0.0.1',
    '::ffff:0:7f00:1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a00:1',
    '64:ff9b:1::1',
    'fec0::1',
    'feff::1',
    '100::1',
    '2001::1',
    '2001:0:4136:e378::1',
    '2001:db8::1',
    '2002:7f00:1::1',
    '3fff::1',
    'fe80::1%eth0',
    '::ffff:192.168.1.1',
    '0:0:0:0:0:0:0:1',
    '1::2::3',
    '12345::1',
    'gg::1',
  ]) {
    assert.ok(isPrivateAddress(address), address);
  }
  for (const address of [
    '2606:4700:4700::1111',
    '2a00:1450:4001:81b::200e',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
  ]) {
    assert.ok(!isPrivateAddress(address), address);
  }
});

test('IPv4 documentation, benchmarking and relay ranges are refused', () => {
  for (const address of [
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1',
    '192.88.99.1',
    '240.0.0.1',
    '255.255.255.255',
  ]) {
    assert.ok(isPrivateAddress(address), address);
  }
});

test('a literal private address is refused when delivering, not only at registration (it needs no lookup)', async () => {
  let hits = 0;
  const server = createServer((_request, response) => {
    hits++;
    response.end('ok');
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  const production = createDeliverer({ timeoutMs: 1000, allowPrivate: false });
  const sandbox = createDeliverer({ timeoutMs: 1000, allowPrivate: true });
  try {
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]']) {
      const result = await production.post(`http://${host}:${port}/hook`, {}, '{}');
      assert.equal(result.statusCode, undefined, host);
      assert.match(String(result.error), /private address: not delivered/);
    }
    assert.equal(hits, 0, 'nothing reached the private address');
    assert.equal(
      (await sandbox.post(`http://127.0.0.1:${port}/hook`, {}, '{}')).statusCode,
      200,
      'the sandbox may deliver to loopback',
    );
  } finally {
    production.close();
    sandbox.close();
    server.close();
  }
});
