import { type Faker, fakerEN, fakerZH_CN } from '@faker-js/faker';

export type Lang = 'en' | 'zh';
export type Depth = 1 | 2 | 3;

const DAY_MS = 86_400_000;
const WEEKDAYS = {
  en: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  zh: ['周日', '周一', '周二', '周三', '周四', '周五', '周六'],
} as const;

/** 32-bit FNV-1a of a string: stable sub-seeds and task ids from (slot, seed, index, attempt). */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Everything one generated task draws from: the language, a seeded faker, the reference date and
 * the id counters. HAZARD: fakerEN and fakerZH_CN are module singletons, seeded here at the start
 * of each task; generation is synchronous, so nothing else can draw from them in between, and the
 * same seed gives the same task whatever ran before (determinism depends on it: never await
 * between `new Gen()` and the end of a task).
 */
export class Gen {
  readonly f: Faker;
  /** The reference date's midnight, UTC (ms). */
  private readonly refMs: number;
  private readonly counters = new Map<string, number>();

  constructor(
    readonly lang: Lang,
    readonly seed: number,
    /** YYYY-MM-DD; the task's clock is pinned to its morning (09:00Z, as validation pins it). */
    readonly ref: string,
    readonly depth: Depth,
  ) {
    this.f = lang === 'zh' ? fakerZH_CN : fakerEN;
    this.refMs = Date.parse(`${ref}T00:00:00Z`);
    // Only the instance this task draws from (seeding costs ~20 µs).
    this.f.seed(seed);
    this.f.setDefaultRefDate(new Date(this.refMs + 9 * 3_600_000));
  }

  /** The phrase in the task's language. */
  L<T>(en: T, zh: T): T {
    return this.lang === 'zh' ? zh : en;
  }

  int(min: number, max: number): number {
    return this.f.number.int({ min, max });
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(0, list.length - 1)]!;
  }
  /** n distinct elements in random order. */
  sample<T>(list: readonly T[], n: number): T[] {
    return this.f.helpers.shuffle([...list]).slice(0, n);
  }
  shuffle<T>(list: readonly T[]): T[] {
    return this.f.helpers.shuffle([...list]);
  }
  chance(p: number): boolean {
    return this.f.number.float({ min: 0, max: 1 }) < p;
  }
  /** A money amount with cents, never a whole number (so it reads as a float in Python too). */
  money(min: number, max: number): number {
    return this.int(min, max - 1) + this.int(1, 99) / 100;
  }

  /** The date `offset` days from the reference date, YYYY-MM-DD. */
  day(offset: number): string {
    return new Date(this.refMs + offset * DAY_MS).toISOString().slice(0, 10);
  }
  /** An instant on that day, e.g. 2026-03-10T14:30:00Z. */
  at(offset: number, hour: number, minute = 0): string {
    return `${this.day(offset)}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`;
  }
  weekday(offset: number): string {
    return WEEKDAYS[this.lang][new Date(this.refMs + offset * DAY_MS).getUTCDay()]!;
  }
  /** Days from the reference date to the next occurrence (1–7 days ahead) of a weekday (0 = Sunday). */
  untilWeekday(dow: number): number {
    const today = new Date(this.refMs).getUTCDay();
    return (dow - today + 7) % 7 || 7;
  }

  /**
   * The next id of a series, e.g. id('TK-', 4) → TK-4817, TK-4819, … Each series starts at a random
   * base and moves by small random steps, so ids differ between tasks but never repeat in one.
   * Bases stay ≥ 100 so ids the services mint themselves (evt_001, todo_001, JOB-001) never collide.
   */
  id(prefix: string, width = 3): string {
    const prev = this.counters.get(prefix);
    const next = prev === undefined ? this.int(10 ** (width - 1), 10 ** width / 2) : prev + this.int(1, 3);
    this.counters.set(prefix, next);
    return `${prefix}${String(next).padStart(width, '0')}`;
  }
}
