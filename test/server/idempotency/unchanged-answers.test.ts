import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { UnchangedAnswers } from '../../../server/plugins/unchanged-answers.ts';
import type { Store } from '../../../server/store/store.ts';

/** A route over UnchangedAnswers that counts how often it made its answer. */
async function route(maxChars?: number) {
  const state = { version: 1 as number | undefined, made: 0, size: 10 };
  const store = {
    get committedVersion() {
      return state.version === undefined ? undefined : () => state.version!;
    },
  } as unknown as Store;
  const answers = new UnchangedAnswers(maxChars);
  const app = Fastify();
  app.get('/:key', async (request, reply) =>
    answers.send(reply, store, (request.params as { key: string }).key, async () => ({
      made: ++state.made,
      padding: 'x'.repeat(state.size),
    })),
  );
  const get = async (key: string) => (await app.inject({ url: `/${key}` })).json().made as number;
  return { state, get };
}

test('an answer is made once while the version stands, and again when it moves', async () => {
  const { state, get } = await route();
  assert.deepEqual([await get('a'), await get('a'), await get('b'), await get('a')], [1, 1, 2, 1]);
  state.version = 2;
  assert.deepEqual([await get('a'), await get('a')], [3, 3]);
});

test('without a committed version every answer is made afresh', async () => {
  const { state, get } = await route();
  state.version = undefined;
  assert.deepEqual([await get('a'), await get('a')], [1, 2]);
});

test('an answer larger than an eighth of the room is not kept', async () => {
  const { state, get } = await route(800);
  state.size = 120;
  assert.deepEqual([await get('a'), await get('a')], [1, 2]);
});

test('when the room is full the answers made longest ago go first', async () => {
  const { state, get } = await route(264);
  // Each body is 32 characters ({"made":N,"padding":"xxxxxxxxx"}): eight fill the room, a ninth pushes out the first.
  state.size = 9;
  const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
  for (const key of keys) await get(key);
  assert.deepEqual([await get('i'), await get('b')], [9, 2]);
  assert.equal(await get('a'), 10, 'made again: it had been let go');
});
