import { Trajectory } from '../../../shared/contract/entities/trajectory';
import type { SourceFormat } from '../../../shared/contract/entities/trajectory';
import { prepareCached, type ReadDb } from '../db/sqlite';
import { PyFloat, setField, toPlain, withoutUndefined, type PyObject, type PyValue } from '../py/pyjson';
import { readRecord } from './formats';
import type { TrajectoryBody } from './trajectories.repo';

/** Optional fields left undefined would be written `null` by dumpsPy and then fail the schema on the way back. */
export { withoutUndefined };

type Header = Record<string, unknown>;

/**
 * The parsed contexts (τ² headers: info + tasks) of the sources a caller reads many records of, by
 * context id: each is parsed once, not once per trajectory (an export of a 207 MB τ² file re-parsed its
 * header thousands of times). Least recently used first out, at most `max` headers and about `budget`
 * characters of header text, as one header can be large; the one in use is always kept. Ids belong to
 * one workspace: a cache serves one database, and callers keep one per pass (an export), not globally.
 * Safe to share because readers never mutate a header and loadTrajectory deep-copies what it returns.
 */
export class ContextCache {
  private readonly parsed = new Map<number, { header: Header | null; chars: number }>();
  private chars = 0;

  constructor(
    private readonly db: ReadDb,
    private readonly max = 4,
    private readonly budget = 64 * 1024 * 1024,
  ) {}

  get(id: number): Header | null {
    const hit = this.parsed.get(id);
    if (hit) {
      this.parsed.delete(id);
      this.parsed.set(id, hit);
      return hit.header;
    }
    const r = prepareCached(this.db, 'SELECT content FROM trajectory_contexts WHERE id = ?').get(id) as
      | { content: string }
      | undefined;
    const entry = { header: r ? (JSON.parse(r.content) as Header) : null, chars: r?.content.length ?? 0 };
    this.parsed.set(id, entry);
    this.chars += entry.chars;
    for (const [old, e] of this.parsed) {
      if (this.parsed.size <= 1 || (this.parsed.size <= this.max && this.chars <= this.budget)) break;
      this.parsed.delete(old);
      this.chars -= e.chars;
    }
    return entry.header;
  }
}

/**
 * A stored trajectory as the canonical Trajectory: the stored Trajectory JSON when there is one
 * (runs, edits, and traces imported before 0009), else read again from the source record with the
 * same reader the import used (so a reader fix reaches old imports too; rewards excepted: a row keeps
 * the reward it was stored with, see rewardOf). Free-form floats come back as plain numbers;
 * exportTrace gives a trace's exact bytes. A caller loading many records passes one ContextCache.
 */
export function loadTrajectory(
  db: ReadDb,
  format: SourceFormat,
  body: TrajectoryBody,
  contexts: ContextCache = new ContextCache(db, 1),
): Trajectory {
  if (body.trajectory !== null) return Trajectory.parse(JSON.parse(body.trajectory));
  const header = body.context_id === null ? null : contexts.get(body.context_id);
  const t = readRecord(format, body.raw!.toString('utf8'), { file: body.file, header, stored: true }).trajectory;
  return Trajectory.parse(plainCopy(t as unknown as PyValue));
}

/** Thrown by plain() at a value the shortcut does not copy exactly as the text round trip would. */
const UNUSUAL = Symbol('unusual value');

function plain(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      // dumpsPy writes an integral -0 as "0"; a non-finite number as NaN/Infinity, which JSON.parse refuses.
      if (!Number.isFinite(v)) throw UNUSUAL;
      return v === 0 ? 0 : v;
    case 'object':
      break;
    default:
      throw UNUSUAL;
  }
  if (v instanceof PyFloat) {
    if (!Number.isFinite(v.value)) throw UNUSUAL;
    return v.value;
  }
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = plain(v[i]);
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) throw UNUSUAL;
  const out: PyObject = {};
  for (const k in v as PyObject) {
    const x = (v as PyObject)[k];
    if (x !== undefined) setField(out, k, plain(x) as PyValue);
  }
  return out;
}

/**
 * The value as toPlain(withoutUndefined(v)) gives it — free-form floats as plain numbers, undefined
 * members left out, nothing shared with `v` (so nothing with a cached header) — without writing and
 * parsing its text, which took ~20 % of an SFT export. Values that text would change or refuse (NaN,
 * infinities, class instances) take that path itself, for the same result or the same error.
 */
export function plainCopy(v: PyValue): unknown {
  try {
    return plain(v);
  } catch (err) {
    if (err !== UNUSUAL) throw err;
    return toPlain(withoutUndefined(v));
  }
}
