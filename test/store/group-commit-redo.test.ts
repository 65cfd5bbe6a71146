import { test } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { GroupCommit } from '../../server/store/sqlite/group-commit.ts';
import { StatementCache } from '../../server/store/sqlite/statement-cache.ts';

/**
 * Units of a group run without savepoints of their own: a unit that fails after it changed something is undone by
 * going back to the group's start and making the earlier units' writes again. These tests drive the group commit
 * directly, on a database of their own, with every statement the writer runs counted.
 */
function openGroups() {
  const db = new SQLite(':memory:');
  db.exec('CREATE TABLE entries (seq INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, note TEXT)');
  const ran: string[] = [];
  const writer = new StatementCache(db, undefined, (sql) => void ran.push(sql));
  // Groups stay open long enough that units started together surely share one.
  const groups = new GroupCommit(writer, undefined, { maxWaitMs: 60_000 });
  /** Runs `work` as a unit, as the store does: its turn, its statements, then kept or undone. */
  const unit = async <T>(work: (run: (sql: string, ...parameters: unknown[]) => { changes: number; rowid: number }) => T): Promise<T> => {
    await groups.begin();
    let result: T;
    try {
      result = work((sql, ...parameters) => {
        const { numAffectedRows, insertId } = groups.run(sql, parameters);
        return { changes: Number(numAffectedRows ?? 0), rowid: Number(insertId ?? 0) };
      });
    } catch (error) {
      await groups.end(false);
      throw error;
    }
    await groups.end(true);
    return result;
  };
  const rows = () => db.prepare('SELECT seq, name, note FROM entries ORDER BY seq').all();
  return { db, groups, unit, rows, ran };
}

const insert = 'INSERT INTO entries (name) VALUES (?)';

test('a unit that fails after writing leaves nothing; the units before and after it commit as if it never ran', async () => {
  const { groups, unit, rows } = openGroups();
  const outcomes = await Promise.allSettled([
    unit((run) => [run(insert, 'a').rowid, run(insert, 'b').rowid]),
    unit((run) => {
      run(insert, 'undone');
      run("UPDATE entries SET note = 'touched by the failing unit' WHERE name = 'a'");
      throw new Error('fails after two writes');
    }),
    // Its rowid follows the kept units': the failing one's rowid is free again.
    unit((run) => run(insert, 'c').rowid),
    unit((run) => {
      run("UPDATE entries SET note = 'second failure' WHERE name = 'c'");
      throw new Error('fails after one write');
    }),
    unit((run) => run("UPDATE entries SET note = 'kept' WHERE name = 'b'").changes),
  ]);
  assert.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
  assert.deepEqual((outcomes[0] as PromiseFulfilledResult<number[]>).value, [1, 2]);
  assert.equal((outcomes[2] as PromiseFulfilledResult<number>).value, 3);
  assert.deepEqual(rows(), [{ seq: 1, name: 'a', note: null }, { seq: 2, name: 'b', note: 'kept' }, { seq: 3, name: 'c', note: null }]);
  assert.deepEqual(groups.sizes.take(), { groups: 1, units: 5, histogram: { '5-8': 1 } });
});

test('the earlier units are written again only when the failing unit had changed something', async () => {
  const { unit, rows, ran } = openGroups();
  await unit((run) => run(insert, 'taken'));
  ran.length = 0;
  const outcomes = await Promise.allSettled([
    unit((run) => run(insert, 'first')),
    // Refused before it changed anything, as a duplicate order id is: a statement that fails changes nothing.
    unit((run) => run(insert, 'taken')),
    unit((run) => {
      if (run('INSERT OR IGNORE INTO entries (name) VALUES (?)', 'taken').changes === 0) throw new Error('taken');
    }),
    unit((run) => run(insert, 'second')),
  ]);
  assert.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'rejected', 'rejected', 'fulfilled']);
  assert.deepEqual(ran.filter((sql) => sql === insert), [insert, insert, insert], 'each insert ran once');
  assert.deepEqual(rows().map((row: any) => row.name), ['taken', 'first', 'second']);

  ran.length = 0;
  await Promise.allSettled([
    unit((run) => run(insert, 'third')),
    unit((run) => {
      run(insert, 'fourth');
      throw new Error('fails after a write');
    }),
  ]);
  assert.deepEqual(ran, [insert, insert, insert], "the failing unit's insert, and the one before it twice");
  assert.deepEqual(rows().map((row: any) => row.name), ['taken', 'first', 'second', 'third']);
});

test('a change of the schema is made again too, and a unit after it sees it', async () => {
  const { db, unit } = openGroups();
  await Promise.allSettled([
    unit((run) => run('CREATE TABLE made_in_the_group (id INTEGER PRIMARY KEY)')),
    unit((run) => {
      run('CREATE TABLE undone_with_its_unit (id INTEGER PRIMARY KEY)');
      throw new Error('fails after a schema change');
    }),
    unit((run) => run('INSERT INTO made_in_the_group (id) VALUES (7)')),
  ]);
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
  assert.deepEqual(tables, ['entries', 'made_in_the_group']);
  assert.deepEqual(db.prepare('SELECT id FROM made_in_the_group').pluck().all(), [7]);
});

test('a group whose writes would not do again what they did fails whole, rather than commit a guess', async () => {
  const { db, unit, rows } = openGroups();
  // A write behind the group commit's back (no code of the service does this): the redo cannot know of it.
  const outcomes = await Promise.allSettled([
    unit((run) => {
      db.prepare("INSERT INTO entries (name) VALUES ('unrecorded')").run();
      return run("UPDATE entries SET note = 'depends on it' WHERE name = 'unrecorded'").changes;
    }),
    unit((run) => {
      run(insert, 'x');
      throw new Error('fails after a write');
    }),
    unit((run) => run(insert, 'after')),
  ]);
  assert.equal(outcomes[0]!.status, 'rejected');
  assert.match(String((outcomes[0] as PromiseRejectedResult).reason), /did not do again what it did/);
  assert.equal(outcomes[1]!.status, 'rejected');
  // The next unit started a group of its own.
  assert.equal(outcomes[2]!.status, 'fulfilled');
  assert.deepEqual(rows().map((row: any) => row.name), ['after']);
});

test('writes that give no rowid (an update, a WITHOUT ROWID table) are redone whatever rowid the failing unit left', async () => {
  const { db, unit, rows } = openGroups();
  db.exec('CREATE TABLE orders (merchant TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (merchant, id)) WITHOUT ROWID');
  await unit((run) => [run(insert, 'a'), run(insert, 'b')]);
  // The first writes of the group give no rowid: better-sqlite3 reports the connection's last one, set before the
  // group began; when they are made again, the failing unit's insert has set it to another.
  const outcomes = await Promise.allSettled([
    unit((run) => {
      run("UPDATE entries SET note = 'updated' WHERE name = 'a'");
      run('INSERT INTO orders (merchant, id) VALUES (?, ?)', 'm', 'o1');
    }),
    unit((run) => {
      run(insert, 'undone');
      throw new Error('fails after an insert');
    }),
    unit((run) => run('INSERT INTO orders (merchant, id) VALUES (?, ?)', 'm', 'o2')),
  ]);
  assert.deepEqual(outcomes.map((outcome) => outcome.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.deepEqual(rows(), [{ seq: 1, name: 'a', note: 'updated' }, { seq: 2, name: 'b', note: null }]);
  assert.deepEqual(db.prepare('SELECT id FROM orders ORDER BY id').pluck().all(), ['o1', 'o2']);
});

test('a statement that failed after inserting a row leaves its rowid behind; the writes after it are redone all the same', async () => {
  const { unit, rows } = openGroups();
  await unit((run) => run(insert, 'a'));
  const outcomes = await Promise.allSettled([
    // Its first row is inserted (rowid 2), its second conflicts: SQLite undoes the statement but keeps rowid 2 as
    // the connection's last, which the update after it then reports.
    unit((run) => run("INSERT INTO entries (name) VALUES ('b'), ('a')")),
    unit((run) => run("UPDATE entries SET note = 'updated' WHERE name = 'a'").changes),
    unit((run) => {
      run("INSERT INTO entries (seq, name) VALUES (10, 'undone')");
      throw new Error('fails after an insert');
    }),
  ]);
  assert.deepEqual(outcomes.map((outcome) => outcome.status), ['rejected', 'fulfilled', 'rejected']);
  assert.match(String((outcomes[0] as PromiseRejectedResult).reason), /UNIQUE/);
  assert.match(String((outcomes[2] as PromiseRejectedResult).reason), /fails after an insert/);
  assert.deepEqual(rows(), [{ seq: 1, name: 'a', note: 'updated' }]);
});
