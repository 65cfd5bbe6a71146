import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { startService, type TestService } from '../support/service.ts';
import { waitUntil } from '../support/wait.ts';

/** A raw connection to the service, recording what it answers and when the service closes it. */
class RawConnection {
  readonly socket: Socket;
  received = '';
  readonly closed: Promise<number>;
  private readonly opened = Date.now();

  constructor(baseUrl: string) {
    const { hostname, port } = new URL(baseUrl);
    this.socket = connect({ host: hostname, port: Number(port) });
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
    await waitUntil(() => /\r\n\r\n\{.*\}$/s.test(this.received.slice(before)) || this.isClosed, { what: 'the answer to GET /health', timeoutMs: 5000, everyMs: 10 });
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
      network: { headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: 2000, keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS, maxConnections: MAX_CONNECTIONS },
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
      result: false, message: 'The request took too long to arrive.', code: 'invalid_request',
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
    assert.ok(idleFor >= KEEP_ALIVE_TIMEOUT_MS - 50 && idleFor < KEEP_ALIVE_TIMEOUT_MS + 1000 + 500, `idle for ${idleFor} ms`);
  });

  test(`past ${MAX_CONNECTIONS} open connections, new ones are closed while the open ones keep working`, async () => {
    // Requests at once keep all of them busy, so none is closed as idle while the test runs.
    const open = Array.from({ length: MAX_CONNECTIONS }, () => new RawConnection(service.baseUrl));
    await Promise.all(open.map((connection) => connection.ready()));
    for (const answer of await Promise.all(open.map((connection) => connection.health()))) assert.match(answer, /^HTTP\/1\.1 200 /);
    const extra = new RawConnection(service.baseUrl);
    await Promise.race([extra.closed, pause(2000)]);
    assert.ok(extra.isClosed, 'the connection past the cap was closed');
    assert.equal(extra.received, '', 'without an answer');
    for (const answer of await Promise.all(open.map((connection) => connection.health()))) assert.match(answer, /^HTTP\/1\.1 200 /);
    for (const connection of open) connection.socket.destroy();
    await Promise.all(open.map((connection) => connection.closed));
    const serverConnections = () => new Promise<number>((resolve, reject) => service.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    await waitUntil(async () => (await serverConnections()) === 0, { what: 'the service seeing them closed' });
    const later = new RawConnection(service.baseUrl);
    await later.ready();
    assert.match(await later.health(), /^HTTP\/1\.1 200 /, 'once they closed, a new connection is taken');
    later.socket.destroy();
  });
});
