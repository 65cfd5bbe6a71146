import { test } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { iterateRows, readRows } from '../../server/store/sqlite/run-statement.ts';

// Rows are read as arrays and made into objects (run-statement.ts): they must equal what better-sqlite3 makes itself.
const STATEMENTS = [
  'select * from t order by id',
  'select id, name as "first name", amount, note, data from t where id > ? order by id desc',
  // The same name twice: the last column wins, as in an object better-sqlite3 makes.
  'select id as a, name as a from t order by id',
  'select id, name as "__proto__" from t order by id',
  "select id, name as \"x\"\"y\", name as 'a-b' from t order by id",
  'select count(*) as n from t where id > ?',
];

test('rows read as arrays and made into objects equal the objects better-sqlite3 makes', () => {
  const db = new SQLite(':memory:');
  db.exec('create table t (id integer primary key, name text, amount integer, note text, data blob)');
  const insert = db.prepare('insert into t (name, amount, note, data) values (?, ?, ?, ?)');
  insert.run('Ada', 1050, null, Buffer.from([1, 2, 3]));
  insert.run('Bo "quoted"', -7, 'a\nnote', null);
  insert.run('', 0, '', Buffer.alloc(0));
  for (const sql of STATEMENTS) {
    const parameters = sql.includes('?') ? [1] : [];
    const expected = db.prepare(sql).all(parameters);
    const statement = db.prepare(sql);
    // Twice: the first call compiles the statement's row maker, the second uses it.
    for (let i = 0; i < 2; i++) {
      const rows = readRows<Record<string, unknown>>(statement, parameters);
      assert.deepEqual(rows, expected, sql);
      for (const row of rows) assert.equal(Object.getPrototypeOf(row), Object.prototype, sql);
    }
    assert.deepEqual([...iterateRows(statement, parameters)], expected, sql);
  }
  db.close();
});
