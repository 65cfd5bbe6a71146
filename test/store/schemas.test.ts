import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openTestStore, testDatabases } from '../support/databases.ts';

test(
  'several PostgreSQL schemas on one server each get their own migration tables',
  { skip: !testDatabases().includes('postgres') && 'PostgreSQL not selected' },
  async () => {
    const opened = await Promise.all(Array.from({ length: 4 }, () => openTestStore('postgres')));
    try {
      for (const { store } of opened) assert.equal(await store.clients.findById('nobody'), undefined);
    } finally {
      await Promise.all(opened.map(({ close }) => close()));
    }
  },
);
