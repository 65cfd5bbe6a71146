import { test } from 'node:test';
import assert from 'node:assert/strict';
import { millisecondsHex, newId, newToken, pooledRandomBytes, uuidV7 } from '../../server/platform/secrets.ts';

test('tokens: the prefix and 32 random bytes in base64url, never the same twice across many pool refills', () => {
  const seen = new Set<string>();
  // 4 KB pools of 32-byte tokens: 128 a pool, so this crosses about 80 refills.
  for (let i = 0; i < 10_000; i++) {
    const token = newToken('pl_');
    assert.match(token, /^pl_[A-Za-z0-9_-]{43}$/);
    seen.add(token);
  }
  assert.equal(seen.size, 10_000);
});

test('pooled random bytes: the size asked, each a copy of its own, spread over every byte value', () => {
  // 5000 is more than the pool holds: it comes from the CSPRNG directly, whole.
  const sizes = [12, 16, 32, 4000, 1, 5000];
  const chunks = sizes.map((size) => pooledRandomBytes(size));
  assert.deepEqual(
    chunks.map((chunk) => chunk.length),
    sizes,
  );
  // A copy: wiping it does not touch the next bytes handed out, and they differ from it.
  const first = Buffer.from(chunks[2]!);
  chunks[2]!.fill(0);
  assert.notDeepEqual(pooledRandomBytes(32), first);
  const counts = new Array<number>(256).fill(0);
  for (let i = 0; i < 1000; i++) for (const byte of pooledRandomBytes(64)) counts[byte]!++;
  // 64,000 bytes: about 250 of each value; a pool handed out twice or left zeroed would skew this far.
  assert.ok(
    Math.min(...counts) > 150 && Math.max(...counts) < 350,
    `byte counts from ${Math.min(...counts)} to ${Math.max(...counts)}`,
  );
});

test('UUIDv7 ids: the millisecond first, as 12 hex digits; a new millisecond gives a new prefix, the same one the same', () => {
  const at = Date.UTC(2026, 10, 23, 8, 0, 0, 1);
  const id = uuidV7(at);
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(id.replace('-', '').slice(0, 12), at.toString(16).padStart(12, '0'));
  // Ids made one after another, within one millisecond and across the next ones, each carry their own time.
  for (const ms of [at, at, at + 1, at - 5, 0, at]) {
    assert.equal(millisecondsHex(ms), ms.toString(16).padStart(12, '0'));
    assert.equal(uuidV7(ms).replace('-', '').slice(0, 12), ms.toString(16).padStart(12, '0'));
  }
  assert.notEqual(uuidV7(at), uuidV7(at));
  assert.match(newId('txn_'), /^txn_[0-9a-f]{8}-/);
});
