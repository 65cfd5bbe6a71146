/**
 * `npx paykit listen --forward-to <url>` against a running service: the client's events arrive at a local receiver,
 * signed as real deliveries are, while the registered endpoint keeps receiving them and stays registered; a lost
 * connection misses nothing; a listener without a registered endpoint signs with a secret of its own.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startService, type TestService } from '../support/service.ts';
import { Receiver, verify } from '../support/receiver.ts';
import { approvedMerchant, paidSale, partnerClient } from '../support/payments.ts';
import { TcpGate } from '../support/tcp-gate.ts';
import { waitUntil } from '../support/wait.ts';
import { listen, PaykitClient, verifyWebhook, type Forwarded } from '../../client/index.ts';

const cli = fileURLToPath(new URL('../../client/cli.ts', import.meta.url));

describe('paykit listen', () => {
  let service: TestService;
  let registered: Receiver;
  let secret: string;
  before(async () => {
    service = await startService({ webhooks: { scheduleSeconds: [1], timeoutMs: 1000, pollMs: 50 } });
    registered = await new Receiver().start();
  });
  after(async () => {
    await service.close();
    await registered.stop();
  });

  test('without a registered endpoint, a listener signs with a new secret of its own and forwards what is written', async () => {
    const local = await new Receiver().start();
    const listener = await listen(partnerClient(service), { forwardTo: local.url });
    try {
      assert.equal(listener.secretSource, 'new');
      const { merchantId } = await approvedMerchant(service);
      const receipt = await local.waitForEvent('merchant.approval', merchantId);
      assert.deepEqual(verifyWebhook(receipt.body, receipt.headers, listener.secret), receipt.event);
    } finally {
      await listener.stop();
      await local.stop();
    }
    assert.equal((await service.api('GET', '/client/webhooks')).status, 404, 'listening registered nothing');
  });

  test('the command forwards every event, signed with the endpoint’s secret, while the registered URL keeps receiving', async () => {
    secret = (await service.api('POST', '/client/update-webhooks-url', { json: { webhook_url: registered.url } })).body
      .data.signing_secret;
    const local = await new Receiver().start();
    let output = '';
    const child: ChildProcess = spawn(
      process.execPath,
      [cli, 'listen', '--forward-to', local.url, '--base-url', service.baseUrl],
      {
        env: {
          ...process.env,
          PAYKIT_CLIENT_ID: service.client.clientId,
          PAYKIT_CLIENT_SECRET: service.client.secretKey,
          PAYKIT_WEBHOOK_SECRET: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    try {
      await waitUntil(() => output.includes('Ctrl-C stops'), {
        what: `the command to start:\n${output}`,
        timeoutMs: 30_000,
        stopIf: () => (child.exitCode !== null ? output : undefined),
      });
      assert.match(
        output,
        new RegExp(
          `Forwarding ${service.client.clientId}'s events from ${service.baseUrl}/api/v1 to ${local.url}, signed with whsec_… \\(your endpoint's signing secret\\)`,
        ),
      );
      assert.ok(!output.includes(secret), 'the endpoint’s secret is not printed');

      const { merchantKey, merchantId } = await approvedMerchant(service);
      const sale = await paidSale(service, merchantKey, '12.00');
      const triggered = await partnerClient(service).sandbox.triggerWebhook('payment.refund', { merchantId });
      const ids = (await service.store.events.listForClient(service.client.clientId))
        .filter((e) => e.data.merchant_id === merchantId)
        .map((e) => e.id);
      assert.ok(ids.includes(triggered.event_id));
      const forwarded = await local.waitFor((all) => ids.every((id) => all.some((r) => r.id === id)));
      const delivered = await registered.waitFor((all) => ids.every((id) => all.some((r) => r.id === id)));
      for (const id of ids) {
        const copy = forwarded.find((r) => r.id === id)!;
        const real = delivered.find((r) => r.id === id)!;
        assert.deepEqual(
          verify(secret, copy),
          copy.event,
          'signed with the endpoint’s secret, verified by the reference library',
        );
        // The body a delivery carries; a merchant key is whole only while the outbox holds it (until delivered).
        const masked = real.body.replace(/"merchant_key":"mk_[\w-]+([\w-]{4})"/, '"merchant_key":"mk_…$1"');
        assert.ok(
          copy.body === real.body || copy.body === masked,
          `the body a delivery carries:\n${copy.body}\n${real.body}`,
        );
        assert.equal(copy.headers['content-type'], 'application/json');
      }
      assert.deepEqual(
        forwarded.filter((r) => ids.includes(r.id)).map((r) => r.id),
        ids,
        'in the order they were written',
      );
      assert.equal(
        forwarded.find((r) => r.id === ids.find((id) => id === triggered.event_id))?.event.event_type,
        'payment.refund',
      );
      assert.ok(
        forwarded.some((r) => r.event.event_type === 'payment.success' && r.event.data.transaction_id === sale),
      );
      await waitUntil(() => output.includes(triggered.event_id), {
        what: 'the command to print the event it forwarded',
      });
      assert.match(output, new RegExp(`payment\\.refund\\s+${triggered.event_id}  → 200`));
      const endpoint = (await service.api('GET', '/client/webhooks')).body.data;
      assert.deepEqual(
        [endpoint.webhook_url, endpoint.signing_secret],
        [registered.url, secret],
        'the registration is untouched',
      );
    } finally {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
      await local.stop();
    }
    assert.equal(child.exitCode, 0, output);
    assert.match(output, /Stopped\. To go on from here: --after \d+\.\d+/);
  });

  test('a lost connection misses nothing: the listener reads again from where it was', async () => {
    const gate = await new TcpGate({ host: '127.0.0.1', port: Number(new URL(service.baseUrl).port) }).start();
    const local = await new Receiver().start();
    const lost: unknown[] = [];
    const forwarded: Forwarded[] = [];
    const paykit = new PaykitClient({
      clientId: service.client.clientId,
      secretKey: service.client.secretKey,
      baseUrl: `http://127.0.0.1:${gate.port}`,
    });
    const listener = await listen(paykit, {
      forwardTo: local.url,
      onReconnect: (error) => lost.push(error),
      onForward: (f) => forwarded.push(f),
    });
    try {
      assert.equal(listener.secretSource, 'endpoint');
      gate.close();
      await waitUntil(() => lost.length > 0, { what: 'the listener to notice the service is gone' });
      const { merchantId } = await approvedMerchant(service);
      const written = (await service.store.events.listForClient(service.client.clientId))
        .filter((e) => e.data.merchant_id === merchantId)
        .map((e) => e.id);
      gate.reopen();
      await local.waitFor((all) => written.every((id) => all.some((r) => r.id === id)), 20_000);
      assert.deepEqual(
        local.receipts.map((r) => r.id),
        written,
        'each once, in order',
      );
      assert.ok(forwarded.every((f) => f.status === 200));
    } finally {
      await listener.stop();
      await local.stop();
      await gate.stop();
    }
  });

  test('the command says what it needs, and the service refusing it ends it', async () => {
    const run = (args: string[], env: Record<string, string> = {}) =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, [cli, ...args], {
          env: { ...process.env, PAYKIT_CLIENT_ID: '', PAYKIT_CLIENT_SECRET: '', ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.once('exit', (code) => resolve({ code, output }));
      });
    const usage = await run(['listen']);
    assert.equal(usage.code, 2);
    assert.match(
      usage.output,
      /Missing --forward-to, --client-id or PAYKIT_CLIENT_ID, --secret-key or PAYKIT_CLIENT_SECRET/,
    );
    assert.match((await run(['--help'])).output, /Usage: paykit listen --forward-to <url>/);
    const unknown = await run(['lisen']);
    assert.deepEqual([unknown.code, /Unknown command: lisen/.test(unknown.output)], [2, true]);
    const wrong = await run(['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--base-url', service.baseUrl], {
      PAYKIT_CLIENT_ID: service.client.clientId,
      PAYKIT_CLIENT_SECRET: 'not-the-secret',
    });
    assert.equal(wrong.code, 1);
    assert.match(wrong.output, /paykit listen: .*(credentials|secret|authenticat)/i);
  });
});
