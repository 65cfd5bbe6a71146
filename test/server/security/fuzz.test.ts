import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { startService, type TestService } from '../../support/service.ts';
import { declaredOperations, dereference } from '../../support/openapi.ts';
import { testDatabases } from '../../support/databases.ts';
import { approvedMerchant, nextOrderId, paidSale, TEST_CARD } from '../../support/payments.ts';
import {
  requestsFor,
  type Fixtures,
  type FuzzRequest,
  type JsonSchema,
  type Operation,
} from '../../support/fuzz-requests.ts';

/**
 * Property-based fuzzing of every operation the service's own OpenAPI document declares: wrong types, missing and
 * extra fields, non-finite and huge numbers, NUL, control bytes and odd unicode in every field, control bytes in
 * headers (raw, over a socket) and inside credentials, bad encodings, deep nesting, wrong content types.
 * Seeded and bounded: PAYKIT_FUZZ_SEED and PAYKIT_FUZZ_RUNS (per operation) reproduce or widen a run.
 * Every answer must be below 500, in the envelope, of a status the operation declares, and match its schema.
 */
const SEED = Number(process.env.PAYKIT_FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.PAYKIT_FUZZ_RUNS ?? 60);

interface Answer {
  status: number;
  type: string;
  text: string;
}

function sendRaw(baseUrl: string, request: FuzzRequest): Promise<Answer> {
  if (request.hostileHeader) return sendOverSocket(baseUrl, request);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}${request.path}`,
      { method: request.method, headers: request.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/**
 * The request as bytes on a socket of its own, hostile header included as it is (node:http refuses to send control
 * bytes), and the answer as the service wrote it, read until it closes the connection or the body is complete.
 */
function sendOverSocket(baseUrl: string, request: FuzzRequest): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  const [name, value] = request.hostileHeader!;
  const headers = { host: `${hostname}:${port}`, ...request.headers };
  const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([n, v]) => `${n}: ${v}\r\n`)
    .join('')}${name}: ${value}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // Kept alive: the answer is whole once its body is (a length, or a chunked body's last chunk).
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /^content-length: *(\d+)/im.exec(text.slice(0, end))?.[1];
      if (
        end >= 0 &&
        ((length !== undefined && text.length - end - 4 >= Number(length)) || /\r\n0\r\n\r\n$/.test(text))
      )
        socket.destroy();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [, status = '0', rawHeaders = ''] = /^HTTP\/1\.1 (\d{3})[^\r\n]*\r\n([^]*?)\r\n\r\n/.exec(text) ?? [];
      if (status === '0') return reject(new Error(`no answer: ${request.about}`));
      const type = /^content-type: *(.*)$/im.exec(rawHeaders)?.[1]?.trim() ?? '';
      let body: Buffer = Buffer.concat(chunks).subarray(
        Buffer.byteLength(text.slice(0, text.indexOf('\r\n\r\n') + 4), 'latin1'),
      );
      if (/^transfer-encoding: *chunked/im.test(rawHeaders)) body = unchunked(body);
      resolve({ status: Number(status), type, text: body.toString('utf8') });
    });
    socket.write(head, 'latin1');
    if (request.body) socket.write(request.body);
  });
}

function unchunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

type OpenApiOperation = {
  parameters?: { in: string; name: string; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
};

function operationsOf(plain: Record<string, any>): Operation[] {
  return declaredOperations(plain).map(({ method, path, operation }) => {
    const { parameters = [], requestBody, responses } = operation as OpenApiOperation;
    return {
      method,
      path,
      pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
      query: Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema])),
      body: requestBody?.content['application/json']?.schema,
      responses: Object.fromEntries(
        Object.entries(responses).map(([status, answer]) => [status, answer.content?.['application/json']?.schema]),
      ),
      csv: responses['200']?.content?.['text/csv'] !== undefined,
      auth: path.startsWith('/widgets/{public_key}')
        ? 'public-key'
        : path === '/widgets/transactions' || path.startsWith('/widgets/transactions/')
          ? 'session'
          : 'basic',
    };
  });
}

async function fixturesFor(service: TestService): Promise<Fixtures> {
  const { merchantKey, merchantId } = await approvedMerchant(service);
  const call = async (method: string, path: string, json?: unknown) => {
    const answer = await service.api(method, path, { json });
    assert.ok(answer.status < 300, `${path}: ${answer.text}`);
    return answer.body;
  };
  const publicKey = (await call('GET', '/merchant')).data.find(
    (m: { merchant_id: string }) => m.merchant_id === merchantId,
  ).public_data.public_key;
  const customerId = (
    await call('POST', '/customers/add', {
      merchant_key: merchantKey,
      first_name: 'Fuzz',
      last_name: 'Base',
      email: 'fuzz@example.com',
    })
  ).data.customer_id;
  const saved = await call('POST', `/requests/${customerId}`, {
    merchant_key: merchantKey,
    amount: '5.00',
    order_id: nextOrderId(),
  });
  await call('POST', '/sandbox/pay', { pay_link: saved.data.pay_link, method: 'card', ...TEST_CARD });
  const saleId = await paidSale(service, merchantKey, '900.00');
  const hold = await call('POST', '/requests', {
    merchant_key: merchantKey,
    amount: '50.00',
    order_id: nextOrderId(),
    preauth: true,
  });
  const preauthId = (await call('POST', '/sandbox/pay', { pay_link: hold.data.pay_link, method: 'card', ...TEST_CARD }))
    .data.transaction_id;
  const ach = await call('POST', '/requests', { merchant_key: merchantKey, amount: '9.00', order_id: nextOrderId() });
  const achId = (
    await call('POST', '/sandbox/pay', {
      pay_link: ach.data.pay_link,
      method: 'ach',
      routing_number: '110000000',
      account_number: '000123456789',
    })
  ).data.transaction_id;
  const open = await call('POST', '/requests', { merchant_key: merchantKey, amount: '3.00', order_id: nextOrderId() });
  const pageOrigin = 'https://shop.example';
  const widgetLink = await service.request('POST', `/api/v1/widgets/${publicKey}/pay-links`, {
    json: { amount: '4.00' },
    headers: { origin: pageOrigin },
  });
  assert.equal(widgetLink.status, 200, widgetLink.text);
  const sessionToken = (
    await call('POST', '/widgets/sessions', {
      merchant_key: merchantKey,
      features: { refunds: true, voids: true, captures: true, export: true, receipts: true },
    })
  ).data.session_token;
  const onboardingSession = (await call('GET', '/auth/create-session')).data.sessionToken;
  const [event] = await service.store.events.listForClient(service.client.clientId);
  return {
    merchantKey,
    merchantId,
    publicKey,
    customerId,
    saleId,
    preauthId,
    achId,
    pageOrigin,
    sessionToken,
    onboardingSession,
    linkId: widgetLink.body.data.link_id,
    payLink: open.data.pay_link,
    eventId: event!.id,
    basicAuth: `Basic ${Buffer.from(`${service.client.clientId}:${service.client.secretKey}`).toString('base64')}`,
  };
}

for (const database of testDatabases()) {
  describe(`fuzzing every operation of the OpenAPI document (${database})`, () => {
    let service: TestService;
    let fixtures: Fixtures;
    let operations: Operation[];
    const ajv = (addFormats as unknown as (ajv: Ajv) => Ajv)(new Ajv({ strict: false, allErrors: true }));
    const validators = new Map<JsonSchema, ValidateFunction>();
    const sent = { requests: 0, hostileHeaders: 0, byStatus: new Map<number, number>() };

    before(async () => {
      service = await startService({ database });
      fixtures = await fixturesFor(service);
      operations = operationsOf(await dereference((await service.request('GET', '/api/v1/openapi.json')).body));
    });
    after(() => service.close());

    /** The properties every answer must have, whatever was sent. */
    function check(operation: Operation, request: FuzzRequest, answer: Answer): void {
      const where = `${request.about}\n→ ${answer.status} ${answer.text.slice(0, 400)}`;
      sent.requests++;
      if (request.hostileHeader) sent.hostileHeaders++;
      sent.byStatus.set(answer.status, (sent.byStatus.get(answer.status) ?? 0) + 1);
      assert.ok(answer.status < 500, `a 5xx: ${where}`);
      // An export's success is its CSV: a header row first, lines ended by CRLF.
      if (answer.status === 200 && operation.csv) {
        assert.match(answer.type, /^text\/csv; charset=utf-8$/, `not CSV: ${where}`);
        assert.match(answer.text, /^[^\r\n]+\r\n/, `no header row: ${where}`);
        return;
      }
      assert.match(answer.type, /^application\/json/, `not JSON: ${where}`);
      const body = JSON.parse(answer.text) as { result?: unknown; status?: unknown; message?: unknown };
      assert.equal(typeof body.message, 'string', `no message: ${where}`);
      if (answer.status >= 400) {
        assert.equal(body.result, false, `a failure without result: false: ${where}`);
        assert.equal(typeof (body as { code?: unknown }).code, 'string', `a failure without a code: ${where}`);
      } else assert.ok(body.result === true || body.status === true, `a success without result: true: ${where}`);
      const declared = operation.responses[String(answer.status)];
      // A path made unroutable by a junk parameter reaches the not-found handler, which answers the envelope's 404.
      assert.ok(
        declared || answer.status === 404,
        `status ${answer.status} is not declared for ${operation.method} ${operation.path}: ${where}`,
      );
      if (!declared) return;
      let validate = validators.get(declared);
      if (!validate) validators.set(declared, (validate = ajv.compile(declared)));
      assert.ok(
        validate(body),
        `the answer does not match its declared schema (${ajv.errorsText(validate.errors)}): ${where}`,
      );
    }

    test('every operation, a few thousand requests in all: no 5xx, every answer in the envelope and as declared', async (t) => {
      assert.ok(operations.length >= 35, `${operations.length} operations`);
      for (const [index, operation] of operations.entries()) {
        await fc.assert(
          fc.asyncProperty(requestsFor(operation, fixtures), async (request) =>
            check(operation, request, await sendRaw(service.baseUrl, request)),
          ),
          { seed: SEED + index, numRuns: RUNS },
        );
      }
      const statuses = [...sent.byStatus]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ');
      t.diagnostic(
        `${sent.requests} requests over ${operations.length} operations (seed ${SEED}), ${sent.hostileHeaders} with control bytes in a header: ${statuses}`,
      );
      assert.ok(sent.requests >= operations.length * RUNS);
      assert.ok(
        (sent.byStatus.get(200) ?? 0) > operations.length,
        'enough requests got through to exercise the handlers',
      );
    });
  });
}
