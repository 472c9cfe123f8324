import type { SftBucket } from '../../../../shared/contract/entities/export';

/** What selection knows of one record, as handed to hooks and reports (made on demand from the table). */
export type Light = {
  id: string;
  order: number;
  taskId: string;
  trial: number | null;
  collection: string | null;
  /** Dedup stays inside it (§6.4); the collection when the record names none. */
  attemptSet: string | null;
  reward: number | null;
  bucket: SftBucket | null;
  override: 'include' | 'exclude' | null;
  pool: string;
  valid: boolean;
  /** Its score awaits an LLM judge (rejected as judge_pending when it has no reward). */
  pending: boolean;
  prefix: string;
};

const BUCKETS: readonly (SftBucket | null)[] = [null, 'KEEP', 'TRIVIAL', 'UNSOLVABLE'];
const OVERRIDES: readonly ('include' | 'exclude' | null)[] = [null, 'include', 'exclude'];

/**
 * FNV-1a then MurmurHash3's finaliser, 32 bits: a cheap stable hash of a record id, for the preview's
 * sample and the table's id set (not for security). The finaliser spreads short, similar ids (`1`, `2`,
 * … or `r0-1`) over the whole range.
 */
export function idHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

type Typed = Int32Array | Uint32Array | Uint8Array | Float64Array;

/** Records per chunk: columns grow a chunk at a time, never copied (a doubled array briefly needs three times). */
const SHIFT = 16;
const CHUNK = 1 << SHIFT;
const MASK = CHUNK - 1;

/** A column of numbers in fixed-size typed-array chunks. */
class Column<T extends Typed> {
  private readonly chunks: T[] = [];
  constructor(private readonly make: (n: number) => T) {}
  get(i: number): number {
    return this.chunks[i >>> SHIFT]![i & MASK]!;
  }
  set(i: number, v: number): void {
    const c = i >>> SHIFT;
    if (c === this.chunks.length) this.chunks.push(this.make(CHUNK));
    this.chunks[c]![i & MASK] = v;
  }
}

/** Record ids as UTF-8 bytes, a buffer per chunk of records, each record's end offset in its chunk. */
class Ids {
  private readonly bytes: Buffer[] = [];
  private readonly ends: Uint32Array[] = [];
  push(i: number, id: string): void {
    const c = i >>> SHIFT;
    const k = i & MASK;
    if (c === this.bytes.length) {
      this.bytes.push(Buffer.allocUnsafe(CHUNK * 8));
      this.ends.push(new Uint32Array(CHUNK));
    }
    const start = k ? this.ends[c]![k - 1]! : 0;
    const n = Buffer.byteLength(id);
    let b = this.bytes[c]!;
    if (start + n > b.length) {
      const next = Buffer.allocUnsafe(Math.max(b.length * 2, start + n));
      b.copy(next, 0, 0, start);
      this.bytes[c] = b = next;
    }
    b.write(id, start, 'utf8');
    this.ends[c]![k] = start + n;
  }
  get(i: number): string {
    const c = i >>> SHIFT;
    const k = i & MASK;
    const ends = this.ends[c]!;
    return this.bytes[c]!.toString('utf8', k ? ends[k - 1]! : 0, ends[k]!);
  }
}

/**
 * The selection's metadata of every record, in columns (issue 17): an object per record (with a Set of
 * ids and a Map of verdicts) cost ~320 bytes and made an export of 1M trajectories peak at 820 MB; here a
 * record costs ~45 bytes (its id's UTF-8 bytes, numbers in typed-array chunks, repeated strings — tasks,
 * collections, pools, prefixes — stored once and named by number). Absent numbers are NaN (rewards and
 * trials are finite by the record schema); absent strings are -1.
 */
export class LightTable {
  size = 0;
  private readonly task = new Column((n) => new Int32Array(n));
  private readonly trial = new Column((n) => new Float64Array(n));
  private readonly collection = new Column((n) => new Int32Array(n));
  private readonly attemptSet = new Column((n) => new Int32Array(n));
  private readonly reward = new Column((n) => new Float64Array(n));
  /** bucket (2 bits), override (2 bits), valid (1 bit), judge pending (1 bit). */
  private readonly flags = new Column((n) => new Uint8Array(n));
  private readonly pool = new Column((n) => new Int32Array(n));
  private readonly prefix = new Column((n) => new Int32Array(n));
  private readonly hash = new Column((n) => new Uint32Array(n));
  private readonly ids = new Ids();
  private readonly strings: string[] = [];
  private readonly stringIndex = new Map<string, number>();

  /** The number standing for a repeated string (a task, a collection, a pool, a prefix). */
  intern(s: string): number {
    let k = this.stringIndex.get(s);
    if (k === undefined) {
      k = this.strings.length;
      this.strings.push(s);
      this.stringIndex.set(s, k);
    }
    return k;
  }

  string(k: number): string {
    return this.strings[k]!;
  }

  push(l: Omit<Light, 'order'>): void {
    const i = this.size;
    this.ids.push(i, l.id);
    this.hash.set(i, idHash(l.id));
    this.task.set(i, this.intern(l.taskId));
    this.trial.set(i, l.trial ?? Number.NaN);
    this.collection.set(i, l.collection === null ? -1 : this.intern(l.collection));
    this.attemptSet.set(i, l.attemptSet === null ? -1 : this.intern(l.attemptSet));
    this.reward.set(i, l.reward ?? Number.NaN);
    this.flags.set(
      i,
      BUCKETS.indexOf(l.bucket) | (OVERRIDES.indexOf(l.override) << 2) | (l.valid ? 16 : 0) | (l.pending ? 32 : 0),
    );
    this.pool.set(i, this.intern(l.pool));
    this.prefix.set(i, this.intern(l.prefix));
    this.size++;
  }

  /**
   * The first record whose id an earlier record already has, with that earlier one; null when every id
   * is unique. Sorts record numbers by id hash (a transient 4 bytes a record) instead of keeping a set.
   */
  firstRepeatedId(): { index: number; earlier: number } | null {
    const order = new Uint32Array(this.size);
    for (let i = 0; i < this.size; i++) order[i] = i;
    order.sort((a, b) => this.hash.get(a) - this.hash.get(b) || a - b);
    let found: { index: number; earlier: number } | null = null;
    for (let k = 0; k < order.length; ) {
      let e = k + 1;
      while (e < order.length && this.hash.get(order[e]!) === this.hash.get(order[k]!)) e++;
      // A hash shared by several records (in record order here): equal ids among them, by a map of that group.
      if (e - k > 1) {
        const seen = new Map<string, number>();
        for (let a = k; a < e; a++) {
          const id = this.id(order[a]!);
          const earlier = seen.get(id);
          if (earlier === undefined) seen.set(id, order[a]!);
          else {
            if (!found || order[a]! < found.index) found = { index: order[a]!, earlier };
            break;
          }
        }
      }
      k = e;
    }
    return found;
  }

  id(i: number): string {
    return this.ids.get(i);
  }

  hashOf(i: number): number {
    return this.hash.get(i);
  }

  /** The interned numbers of record i's task, collection (-1: none), pool and prefix. */
  taskKey(i: number): number {
    return this.task.get(i);
  }

  collectionKey(i: number): number {
    return this.collection.get(i);
  }

  attemptSetKey(i: number): number {
    return this.attemptSet.get(i);
  }

  poolKey(i: number): number {
    return this.pool.get(i);
  }

  prefixKey(i: number): number {
    return this.prefix.get(i);
  }

  trialOf(i: number): number | null {
    const t = this.trial.get(i);
    return Number.isNaN(t) ? null : t;
  }

  rewardOf(i: number): number | null {
    const r = this.reward.get(i);
    return Number.isNaN(r) ? null : r;
  }

  bucketOf(i: number): SftBucket | null {
    return BUCKETS[this.flags.get(i) & 3]!;
  }

  overrideOf(i: number): 'include' | 'exclude' | null {
    return OVERRIDES[(this.flags.get(i) >> 2) & 3]!;
  }

  isValid(i: number): boolean {
    return (this.flags.get(i) & 16) !== 0;
  }

  isPending(i: number): boolean {
    return (this.flags.get(i) & 32) !== 0;
  }

  light(i: number): Light {
    const c = this.collection.get(i);
    return {
      id: this.id(i),
      order: i,
      taskId: this.string(this.task.get(i)),
      trial: this.trialOf(i),
      collection: c === -1 ? null : this.string(c),
      attemptSet: this.attemptSet.get(i) === -1 ? null : this.string(this.attemptSet.get(i)),
      reward: this.rewardOf(i),
      bucket: this.bucketOf(i),
      override: this.overrideOf(i),
      pool: this.string(this.pool.get(i)),
      valid: this.isValid(i),
      pending: this.isPending(i),
      prefix: this.string(this.prefix.get(i)),
    };
  }
}
