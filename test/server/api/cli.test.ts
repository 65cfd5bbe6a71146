import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, startServiceProcess } from '../../support/process.ts';
import { send } from '../../support/http.ts';

test('create-client makes credentials the production service accepts', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { PAYKIT_DATA_DIR: dir, PAYKIT_ENV: 'production' };
  const created = await run(['server/cli/create-client.ts', '--name', 'Acme Payments', '--json'], env);
  assert.equal(created.code, 0, created.output);
  const { clientId, secretKey, publicKey } = JSON.parse(created.output.trim().split('\n').at(-1)!);
  assert.match(clientId, /^cli_/);
  assert.match(secretKey, /^sk_/);
  assert.match(publicKey, /^pk_client_/);

  const service = await startServiceProcess(env);
  try {
    const answer = await send(service.baseUrl, 'GET', '/api/v1/merchant', {
      auth: { id: clientId, secret: secretKey },
    });
    assert.equal(answer.status, 200);
    const wrong = await send(service.baseUrl, 'GET', '/api/v1/merchant', {
      auth: { id: clientId, secret: `${secretKey}x` },
    });
    assert.equal(wrong.status, 401);
  } finally {
    await service.stop();
  }
});

test('create-client needs a name', async () => {
  const result = await run(['server/cli/create-client.ts'], { PAYKIT_DATA_DIR: 'memory' });
  assert.equal(result.code, 1);
  assert.match(result.output, /create-client: give the partner a name/);
});
