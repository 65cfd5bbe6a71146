import { test } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { iterateRows, readRows, runStatement } from '../../server/store/sqlite/run-statement.ts';

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

test('a statement binds its values given one by one or, past a thousand of them, as one list: both write and read the same', () => {
  const db = new SQLite(':memory:');
  db.exec('create table t (id integer primary key, name text, amount integer)');
  for (const rows of [3, 334, 1000]) {
    db.exec('delete from t');
    // 3 values a row: 9, 1,002 and 3,000 values in one statement, on both sides of the line.
    const values = Array.from({ length: rows }, (_, i) => [i + 1, `name ${i}`, i * 7]).flat();
    const insert = db.prepare(`insert into t (id, name, amount) values ${Array(rows).fill('(?, ?, ?)').join(', ')}`);
    const written = runStatement(insert, values);
    assert.equal(written.numAffectedRows, BigInt(rows));
    assert.equal(written.insertId, BigInt(rows));
    const ids = Array.from({ length: rows }, (_, i) => i + 1);
    const select = db.prepare(`select id, name, amount from t where id in (${ids.map(() => '?').join(', ')}) order by id`);
    const expected = Array.from({ length: rows }, (_, i) => ({ id: i + 1, name: `name ${i}`, amount: i * 7 }));
    assert.deepEqual(readRows(select, ids), expected);
    assert.deepEqual([...iterateRows(select, ids)], expected);
  }
  db.close();
});
