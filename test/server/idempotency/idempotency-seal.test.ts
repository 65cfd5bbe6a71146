import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { seal, sealingKey, unseal } from '../../../server/plugins/idempotency-seal.ts';

const samples = [
  [
    'sk_0123456789abcdef0123456789abcdef',
    'cli_0193a6f0-aaaa-7bbb-8ccc-123456789abc',
    '4f8c8a52-6a2b-4a57-9d3a-5d1e0c1b2a3f',
  ],
  ['', 'c', 'k'],
  ['sëcret ✓', 'clïent', ' ~!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}'],
  [randomBytes(64).toString('base64'), randomBytes(40).toString('hex'), 'x'.repeat(255)],
] as const;

test("the sealing key is HKDF-SHA256 of the secret, salted with the client id, for the key: node's own bytes", () => {
  for (const [secret, clientId, key] of samples) {
    const expected = Buffer.from(hkdfSync('sha256', secret, clientId, `paykit idempotent answer\n${key}`, 32));
    assert.deepEqual(sealingKey(secret, clientId, key), expected);
  }
});

test('an answer sealed under the hkdfSync derivation opens, and a wrong key opens nothing', () => {
  const [secret, clientId, key] = samples[0];
  const before = Buffer.from(hkdfSync('sha256', secret, clientId, `paykit idempotent answer\n${key}`, 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', before, iv);
  const sealed = Buffer.concat([cipher.update('{"result":true}', 'utf8'), cipher.final()]);
  const stored = `v1.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  assert.equal(unseal(sealingKey(secret, clientId, key), stored), '{"result":true}');
  assert.equal(unseal(sealingKey(`${secret}x`, clientId, key), stored), undefined);
  assert.equal(unseal(sealingKey(secret, clientId, key), seal(sealingKey(secret, clientId, key), 'again')), 'again');
});
