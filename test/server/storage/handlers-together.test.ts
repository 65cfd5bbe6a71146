import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import Fastify, { type FastifyInstance } from 'fastify';
import { runHandlersTogether } from '../../../server/plugins/handlers-together.ts';
import { buildApp } from '../../../server/app.ts';
import { Clock } from '../../../server/platform/clock.ts';
import { readConfig } from '../../../server/platform/config.ts';
import { openTestStore } from '../../support/databases.ts';

/** Puts `app` (not yet listening) on a loopback port, noting when each request was read and when its handler ran. */
async function listenNotingStages(app: FastifyInstance): Promise<{ port: number; stages: string[] }> {
  const stages: string[] = [];
  app.addHook('onRequest', (request, _reply, done) => {
    stages.push(`read ${request.headers['x-n']}`);
    done();
  });
  app.get('/stages', async (request) => {
    stages.push(`handled ${request.headers['x-n']}`);
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as { port: number }).port, stages };
}

/** Sends one request on each of `count` open connections in the same turn, so the server finds them all ready at once. */
async function sendTogether(port: number, count: number): Promise<void> {
  const sockets: Socket[] = [];
  for (let n = 0; n < count; n++) {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    sockets.push(socket);
  }
  const answered = sockets.map((socket) => once(socket, 'data'));
  sockets.forEach((socket, n) =>
    socket.write(`GET /stages HTTP/1.1\r\nhost: 127.0.0.1\r\nx-n: ${n}\r\nconnection: close\r\n\r\n`),
  );
  await Promise.all(answered);
  for (const socket of sockets) socket.destroy();
}

const TOGETHER = ['read 0', 'read 1', 'read 2', 'read 3', 'handled 0', 'handled 1', 'handled 2', 'handled 3'];

test('requests that arrive together are all read before any of their handlers runs', async () => {
  const app = Fastify();
  runHandlersTogether(app);
  const { port, stages } = await listenNotingStages(app);
  try {
    await sendTogether(port, 4);
    assert.deepEqual(stages, TOGETHER);
  } finally {
    await app.close();
  }
});

test('without it each request runs its handler before the next is read (what the hook changes)', async () => {
  const app = Fastify();
  const { port, stages } = await listenNotingStages(app);
  try {
    await sendTogether(port, 4);
    assert.deepEqual(stages, [
      'read 0',
      'handled 0',
      'read 1',
      'handled 1',
      'read 2',
      'handled 2',
      'read 3',
      'handled 3',
    ]);
  } finally {
    await app.close();
  }
});

test('the service runs its handlers together', async () => {
  const { store, close } = await openTestStore('sqlite');
  const app = await buildApp({ store, clock: new Clock(), config: readConfig({ PAYKIT_DATA_DIR: 'memory' }) });
  try {
    const { port, stages } = await listenNotingStages(app);
    await sendTogether(port, 4);
    assert.deepEqual(stages, TOGETHER);
  } finally {
    await app.close();
    await close();
  }
});
