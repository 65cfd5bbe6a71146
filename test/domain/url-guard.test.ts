import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkWebhookUrl, isPrivateAddress } from '../../server/webhooks/url-guard.ts';

test('private, loopback, link-local and reserved addresses are recognised', () => {
  for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
    '::1', '::', 'fd12::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a00:1', 'not-an-ip']) {
    assert.ok(isPrivateAddress(address), address);
  }
  for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:5db8:d822']) {
    assert.ok(!isPrivateAddress(address), address);
  }
});

test('names are checked by what they resolve to, every address of them', async () => {
  const resolve = async (host: string) => ({ 'public.example': ['93.184.216.34'], 'mixed.example': ['93.184.216.34', '10.0.0.5'], 'inside.example': ['192.168.0.2'] })[host] ?? [];
  assert.equal(await checkWebhookUrl('https://public.example/h', false, resolve), null);
  assert.match(String(await checkWebhookUrl('https://mixed.example/h', false, resolve)), /mixed\.example is loopback, private or link-local/);
  assert.match(String(await checkWebhookUrl('https://inside.example/h', false, resolve)), /must reach a public address/);
  assert.match(String(await checkWebhookUrl('https://nowhere.example/h', false, async () => { throw new Error('ENOTFOUND'); })), /does not resolve/);
  assert.equal(await checkWebhookUrl('http://127.0.0.1:9/h', true), null, 'the sandbox allows loopback');
});
