import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RepeatedErrorLog } from '../../../server/plugins/repeated-errors.ts';

test('an error repeated for every request is logged once per interval, then once with how many more came', () => {
  const lines: [string, Record<string, unknown>, string][] = [];
  const log = {
    error: (fields: object, message: string) => lines.push(['error', fields as never, message]),
    warn: (fields: object, message: string) => lines.push(['warn', fields as never, message]),
  };
  let now = 0;
  const repeated = new RepeatedErrorLog(log, 10_000, () => now);
  for (let i = 0; i < 1000; i++)
    repeated.report(
      'storage:SQLITE_FULL',
      new Error('database or disk is full'),
      'the database could not take a request',
    );
  repeated.report('storage:57P01', new Error('terminating connection'), 'the database could not take a request');
  assert.deepEqual(
    lines.map(([level, fields]) => [level, fields['kind']]),
    [
      ['error', 'storage:SQLITE_FULL'],
      ['error', 'storage:57P01'],
    ],
  );

  now = 10_000;
  repeated.report(
    'storage:SQLITE_FULL',
    new Error('database or disk is full'),
    'the database could not take a request',
  );
  assert.deepEqual(
    lines.slice(2).map(([level, fields]) => [level, fields['kind'], fields['count'] ?? null]),
    [
      ['warn', 'storage:SQLITE_FULL', 999],
      ['error', 'storage:SQLITE_FULL', null],
    ],
  );
});
