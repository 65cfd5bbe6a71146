import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { startService, type TestService } from '../../support/service.ts';
import { waitUntil } from '../../support/wait.ts';
import { callerKey } from '../../../server/plugins/connection-shares.ts';

/** A raw connection to the service, recording what it answers and when the service closes it. */
class RawConnection {
  readonly socket: Socket;
  received = '';
  readonly closed: Promise<number>;
  private readonly opened = Date.now();

  /** `from`: the local address to connect from (any of 127.0.0.0/8 reaches a loopback service). */
  constructor(baseUrl: string, from?: string) {
    const { hostname, port } = new URL(baseUrl);
    this.socket = connect({ host: hostname, port: Number(port), ...(from ? { localAddress: from } : {}) });
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => (this.received += chunk));
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve(Date.now() - this.opened)));
  }

  async ready(): Promise<void> {
    await once(this.socket, 'connect');
  }

  get isClosed(): boolean {
    return this.socket.destroyed || this.socket.readyState === 'closed';
  }

  /** Sends a GET /health on this connection and waits for its whole answer. */
  async health(): Promise<string> {
    const before = this.received.length;
    this.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await waitUntil(() => /\r\n\r\n\{.*\}$/s.test(this.received.slice(before)) || this.isClosed, {
      what: 'the answer to GET /health',
      timeoutMs: 5000,
      everyMs: 10,
    });
    return this.received.slice(before);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('connections are bounded', () => {
  const HEADERS_TIMEOUT_MS = 500;
  const KEEP_ALIVE_TIMEOUT_MS = 300;
  const MAX_CONNECTIONS = 5;
  let service: TestService;
  before(async () => {
    service = await startService({
      network: {
        headersTimeoutMs: HEADERS_TIMEOUT_MS,
        requestTimeoutMs: 2000,
        keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
        maxConnections: MAX_CONNECTIONS,
      },
    });
  });
  after(() => service.close());

  test(`a connection trickling its headers is closed within the headers timeout (${HEADERS_TIMEOUT_MS} ms), with a 408 in the envelope`, async () => {
    const slow = new RawConnection(service.baseUrl);
    await slow.ready();
    slow.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // A header line every 50 ms keeps the socket busy, so no idle timeout can be what closes it; at most 5 s.
    for (let i = 0; i < 100 && !slow.isClosed; i++) {
      slow.socket.write(`X-Slow-${i}: a\r\n`);
      await pause(50);
    }
    const lived = await Promise.race([slow.closed, pause(1000).then(() => Infinity)]);
    assert.ok(lived >= HEADERS_TIMEOUT_MS && lived < HEADERS_TIMEOUT_MS + 500, `lived ${lived} ms`);
    assert.match(slow.received, /^HTTP\/1\.1 408 /);
    assert.deepEqual(JSON.parse(slow.received.slice(slow.received.indexOf('\r\n\r\n') + 4)), {
      result: false,
      message: 'The request took too long to arrive.',
      code: 'invalid_request',
    });
  });

  // Node keeps an idle connection one second past the timeout it announces (`Keep-Alive: timeout=`), so that the
  // client, not the server, closes first.
  test(`an idle keep-alive connection is closed after the keep-alive timeout (${KEEP_ALIVE_TIMEOUT_MS} ms, and Node's second)`, async () => {
    const idle = new RawConnection(service.baseUrl);
    await idle.ready();
    assert.match(await idle.health(), /^HTTP\/1\.1 200 /);
    const answeredAt = Date.now();
    await Promise.race([idle.closed, pause(5000)]);
    const idleFor = Date.now() - answeredAt;
    assert.ok(idle.isClosed, 'closed');
    assert.ok(
      idleFor >= KEEP_ALIVE_TIMEOUT_MS - 50 && idleFor < KEEP_ALIVE_TIMEOUT_MS + 1000 + 500,
      `idle for ${idleFor} ms`,
    );
  });

  test(`past ${MAX_CONNECTIONS} open connections, new ones are closed while the open ones keep working`, async () => {
    // Requests at once keep all of them busy, so none is closed as idle while the test runs.
    const open = Array.from({ length: MAX_CONNECTIONS }, () => new RawConnection(service.baseUrl));
    await Promise.all(open.map((connection) => connection.ready()));
    for (const answer of await Promise.all(open.map((connection) => connection.health())))
      assert.match(answer, /^HTTP\/1\.1 200 /);
    const extra = new RawConnection(service.baseUrl);
    await Promise.race([extra.closed, pause(2000)]);
    assert.ok(extra.isClosed, 'the connection past the cap was closed');
    assert.equal(extra.received, '', 'without an answer');
    for (const answer of await Promise.all(open.map((connection) => connection.health())))
      assert.match(answer, /^HTTP\/1\.1 200 /);
    for (const connection of open) connection.socket.destroy();
    await Promise.all(open.map((connection) => connection.closed));
    const serverConnections = () =>
      new Promise<number>((resolve, reject) =>
        service.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    await waitUntil(async () => (await serverConnections()) === 0, { what: 'the service seeing them closed' });
    const later = new RawConnection(service.baseUrl);
    await later.ready();
    assert.match(await later.health(), /^HTTP\/1\.1 200 /, 'once they closed, a new connection is taken');
    later.socket.destroy();
  });
});

describe('one address holds at most its share of the connections', () => {
  const MAX_CONNECTIONS = 8;
  const PER_ADDRESS = 3;
  const services: TestService[] = [];
  after(() => Promise.all(services.map((service) => service.close())));

  test(`past ${PER_ADDRESS} connections from one address, its new ones are closed; other addresses still get in`, async () => {
    const service = await startService({
      network: { maxConnections: MAX_CONNECTIONS, maxConnectionsPerAddress: PER_ADDRESS, keepAliveTimeoutMs: 5000 },
    });
    services.push(service);
    const hog = Array.from({ length: PER_ADDRESS }, () => new RawConnection(service.baseUrl, '127.0.0.1'));
    await Promise.all(hog.map((connection) => connection.ready()));
    for (const answer of await Promise.all(hog.map((connection) => connection.health())))
      assert.match(answer, /^HTTP\/1\.1 200 /);
    const more = Array.from({ length: MAX_CONNECTIONS }, () => new RawConnection(service.baseUrl, '127.0.0.1'));
    await Promise.all(more.map((connection) => Promise.race([connection.closed, pause(2000)])));
    assert.ok(
      more.every((connection) => connection.isClosed && connection.received === ''),
      'the hog’s connections past its share are closed unanswered',
    );
    // The cap has room for others: a neighbour's connections are taken, and the hog's first ones still work.
    const neighbour = [
      new RawConnection(service.baseUrl, '127.0.0.2'),
      new RawConnection(service.baseUrl, '127.0.0.3'),
    ];
    await Promise.all(neighbour.map((connection) => connection.ready()));
    for (const answer of await Promise.all(neighbour.map((connection) => connection.health())))
      assert.match(answer, /^HTTP\/1\.1 200 /);
    for (const answer of await Promise.all(hog.map((connection) => connection.health())))
      assert.match(answer, /^HTTP\/1\.1 200 /);
    // A connection the hog closes gives its share back.
    hog[0]!.socket.destroy();
    await hog[0]!.closed;
    await waitUntil(
      async () => {
        const again = new RawConnection(service.baseUrl, '127.0.0.1');
        const answered = /^HTTP\/1\.1 200 /.test(await again.health().catch(() => ''));
        again.socket.destroy();
        return answered;
      },
      { what: 'a new connection of the hog taken once one of its own closed' },
    );
    for (const connection of [...hog, ...neighbour]) connection.socket.destroy();
  });

  test('a trusted proxy has no share: the cap alone bounds it', async () => {
    const service = await startService({
      network: {
        maxConnections: MAX_CONNECTIONS,
        maxConnectionsPerAddress: PER_ADDRESS,
        keepAliveTimeoutMs: 5000,
        trustProxy: ['127.0.0.0/8'],
      },
    });
    services.push(service);
    const proxied = Array.from({ length: PER_ADDRESS + 2 }, () => new RawConnection(service.baseUrl, '127.0.0.1'));
    await Promise.all(proxied.map((connection) => connection.ready()));
    for (const answer of await Promise.all(proxied.map((connection) => connection.health())))
      assert.match(answer, /^HTTP\/1\.1 200 /);
    for (const connection of proxied) connection.socket.destroy();
  });

  test('an IPv6 caller is counted by its /64; an IPv4-mapped address as its IPv4 address', () => {
    assert.equal(callerKey('2001:db8:0:1::1'), callerKey('2001:db8:0:1:ffff:ffff:ffff:fffe'));
    assert.notEqual(callerKey('2001:db8:0:1::1'), callerKey('2001:db8:0:2::1'));
    assert.equal(callerKey('2001:db8::1:2:3:4:5'), '2001:db8:0:1::/64');
    assert.equal(callerKey('::1'), '0:0:0:0::/64');
    assert.equal(callerKey('::ffff:203.0.113.9'), '203.0.113.9');
    assert.equal(callerKey('203.0.113.9'), '203.0.113.9');
  });
});

describe('a body is not read after its request was refused', () => {
  let service: TestService;
  before(async () => {
    service = await startService();
  });
  after(() => service.close());

  test('50 MB streamed into an unauthenticated call: answered 401, then the connection is closed and the rest never read', async () => {
    const caller = new RawConnection(service.baseUrl);
    await caller.ready();
    const total = 50 * 1024 * 1024;
    caller.socket.write(
      `POST /api/v1/onboarding HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let written = 0;
    // As fast as the socket takes it, until the service closes it or all of it went.
    while (written < total && !caller.isClosed) {
      const more = caller.socket.write(chunk);
      written += chunk.length;
      if (!more) await Promise.race([new Promise((resolve) => caller.socket.once('drain', resolve)), caller.closed]);
    }
    await caller.closed;
    assert.match(caller.received, /^HTTP\/1\.1 401 [^]*\r\nconnection: close\r\n/i);
    assert.match(caller.received, /"code":"authentication_failed"/);
    assert.ok(written < total / 5, `${(written / 1048576).toFixed(1)} MB were taken before the connection closed`);
  });

  test('a small body still arriving is read to its end, and the connection serves the next request', async () => {
    const caller = new RawConnection(service.baseUrl);
    await caller.ready();
    const body = JSON.stringify({ padding: 'x'.repeat(2000) });
    caller.socket.write(
      `POST /api/v1/onboarding HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 1000)}`,
    );
    await waitUntil(() => caller.received.includes('"code":"authentication_failed"'), { what: 'the 401' });
    assert.doesNotMatch(caller.received, /connection: close/i);
    caller.socket.write(body.slice(1000));
    assert.match(await caller.health(), /^HTTP\/1\.1 200 /, 'the same connection answers the next request');
    caller.socket.destroy();
  });
});
