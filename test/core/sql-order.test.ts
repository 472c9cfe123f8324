import { describe, expect, it } from 'vitest';
import { compareSqlValues, MinHeap } from '../../src/main/core/db/sql-order';
import { openDb } from '../../src/main/core/db/sqlite';

/** The merge of index ranges (group-merge.ts) orders values in JavaScript exactly as SQLite's ORDER BY does. */
describe('compareSqlValues', () => {
  const values = [null, -1.5, 0, 1, 2, '', 'a', 'B', 'b', 'ab', '\u{e000}', '\u{ffff}', '😀', '\u{10ffff}', 'é', 'e'];

  it('orders NULL, numbers and text (UTF-8 bytes) as SQLite does', () => {
    const db = openDb(':memory:');
    db.exec('CREATE TABLE v (x ANY) STRICT');
    const ins = db.prepare('INSERT INTO v VALUES (?)');
    for (const v of values) ins.run(v);
    const sqlite = (db.prepare('SELECT x FROM v ORDER BY x').all() as { x: unknown }[]).map((r) => r.x);
    db.close();
    expect([...values].sort(compareSqlValues)).toEqual(sqlite);
  });

  it('heap pops in order after pushes', () => {
    const h = MinHeap.fromSorted([1, 4, 9], (a: number, b: number) => a - b);
    for (const x of [7, 2, 8, 0]) h.push(x);
    const out: number[] = [];
    for (let x = h.pop(); x !== undefined; x = h.pop()) out.push(x);
    expect(out).toEqual([0, 1, 2, 4, 7, 8, 9]);
  });
});
