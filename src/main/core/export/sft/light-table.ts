import type { SftBucket } from '../../../../shared/contract/entities/export';

/** What selection knows of one record, as handed to hooks and reports (made on demand from the table). */
export type Light = {
  id: string;
  order: number;
  taskId: string;
  trial: number | null;
  collection: string | null;
  reward: number | null;
  bucket: SftBucket | null;
  override: 'include' | 'exclude' | null;
  pool: string;
  valid: boolean;
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
function grown<T extends Typed>(a: T, size: number): T {
  const next = new (a.constructor as new (n: number) => T)(size);
  next.set(a);
  return next;
}

/**
 * The selection's metadata of every record, in columns (issue 17): an object per record cost ~700 bytes
 * and made an export of 1M trajectories need ~1 GB; here a record costs ~50 bytes (its id's UTF-8 bytes,
 * numbers in typed arrays, repeated strings — tasks, collections, pools, prefixes — stored once). Absent
 * numbers are NaN (rewards and trials are finite by the record schema); absent strings are -1.
 */
export class LightTable {
  size = 0;
  private cap = 1024;
  task = new Int32Array(this.cap);
  trial = new Float64Array(this.cap);
  collection = new Int32Array(this.cap);
  reward = new Float64Array(this.cap);
  bucket = new Uint8Array(this.cap);
  override = new Uint8Array(this.cap);
  pool = new Int32Array(this.cap);
  valid = new Uint8Array(this.cap);
  prefix = new Int32Array(this.cap);
  hash = new Uint32Array(this.cap);
  private idEnd = new Uint32Array(this.cap);
  private idBytes = Buffer.alloc(1 << 16);
  /** Open addressing over the ids (index + 1; 0 empty), to refuse an id used twice without a Set of strings. */
  private idSlots = new Int32Array(4096);
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

  /** Appends a record; false (and nothing appended) when its id is already in the table. */
  push(l: Omit<Light, 'order'>): boolean {
    const h = idHash(l.id);
    if (this.indexOf(l.id, h) !== -1) return false;
    const i = this.size;
    if (i === this.cap) this.grow();
    const start = i ? this.idEnd[i - 1]! : 0;
    const bytes = Buffer.byteLength(l.id);
    if (start + bytes > this.idBytes.length) {
      const next = Buffer.alloc(Math.max(this.idBytes.length * 2, start + bytes));
      this.idBytes.copy(next, 0, 0, start);
      this.idBytes = next;
    }
    this.idBytes.write(l.id, start, 'utf8');
    this.idEnd[i] = start + bytes;
    this.hash[i] = h;
    this.task[i] = this.intern(l.taskId);
    this.trial[i] = l.trial ?? Number.NaN;
    this.collection[i] = l.collection === null ? -1 : this.intern(l.collection);
    this.reward[i] = l.reward ?? Number.NaN;
    this.bucket[i] = BUCKETS.indexOf(l.bucket);
    this.override[i] = OVERRIDES.indexOf(l.override);
    this.pool[i] = this.intern(l.pool);
    this.valid[i] = l.valid ? 1 : 0;
    this.prefix[i] = this.intern(l.prefix);
    this.size++;
    if (this.size * 2 > this.idSlots.length) this.rehash();
    else this.place(i);
    return true;
  }

  id(i: number): string {
    return this.idBytes.toString('utf8', i ? this.idEnd[i - 1]! : 0, this.idEnd[i]!);
  }

  trialOf(i: number): number | null {
    const t = this.trial[i]!;
    return Number.isNaN(t) ? null : t;
  }

  rewardOf(i: number): number | null {
    const r = this.reward[i]!;
    return Number.isNaN(r) ? null : r;
  }

  bucketOf(i: number): SftBucket | null {
    return BUCKETS[this.bucket[i]!]!;
  }

  overrideOf(i: number): 'include' | 'exclude' | null {
    return OVERRIDES[this.override[i]!]!;
  }

  light(i: number): Light {
    const c = this.collection[i]!;
    return {
      id: this.id(i),
      order: i,
      taskId: this.string(this.task[i]!),
      trial: this.trialOf(i),
      collection: c === -1 ? null : this.string(c),
      reward: this.rewardOf(i),
      bucket: this.bucketOf(i),
      override: this.overrideOf(i),
      pool: this.string(this.pool[i]!),
      valid: this.valid[i] === 1,
      prefix: this.string(this.prefix[i]!),
    };
  }

  private indexOf(id: string, h: number): number {
    const mask = this.idSlots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const k = this.idSlots[s]!;
      if (k === 0) return -1;
      if (this.hash[k - 1] === h && this.id(k - 1) === id) return k - 1;
    }
  }

  private place(i: number): void {
    const mask = this.idSlots.length - 1;
    let s = this.hash[i]! & mask;
    while (this.idSlots[s] !== 0) s = (s + 1) & mask;
    this.idSlots[s] = i + 1;
  }

  private rehash(): void {
    this.idSlots = new Int32Array(this.idSlots.length * 2);
    for (let i = 0; i < this.size; i++) this.place(i);
  }

  private grow(): void {
    this.cap *= 2;
    this.task = grown(this.task, this.cap);
    this.trial = grown(this.trial, this.cap);
    this.collection = grown(this.collection, this.cap);
    this.reward = grown(this.reward, this.cap);
    this.bucket = grown(this.bucket, this.cap);
    this.override = grown(this.override, this.cap);
    this.pool = grown(this.pool, this.cap);
    this.valid = grown(this.valid, this.cap);
    this.prefix = grown(this.prefix, this.cap);
    this.hash = grown(this.hash, this.cap);
    this.idEnd = grown(this.idEnd, this.cap);
  }
}
