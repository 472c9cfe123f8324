import { randomBytes } from 'node:crypto';
import { DEFAULT_ENV_LIMITS } from '../export/rl/package-record';
import { scriptedAnswer } from '../agents/scripted-user';
import { grade, type Judge, runRecordFrom } from '../grading/grade';
import { formatConversation } from '../grading/judge/judge-inputs';
import { needsJudge } from '../grading/judge/judge-pass';
import type { Environment } from '../services/environment';
import { seededRandom } from '../services/lib';
import { dumpsPy, isObject, numeric, parsePyJson, type PyValue } from '../py/pyjson';
import { environmentForSpec } from '../tasks/task-spec-of';
import type { EnvJudge, EnvJudgeSummary } from './env-judge';
import type { LoadedPackage, ServedTask } from './package-load';

/** An error the server answers as `{error: {code, message}}` with this HTTP status. */
export class EnvRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type EpisodeLimits = {
  /** Open episodes at once; a create beyond it is refused (503) until some close or expire. */
  maxEpisodes: number;
  /** An episode untouched this long is closed. */
  idleMs: number;
  maxStepsPerEpisode: number;
};

export const DEFAULT_LIMITS: EpisodeLimits = { ...DEFAULT_ENV_LIMITS };

type Episode = {
  id: string;
  task: ServedTask;
  env: Environment;
  clock: string;
  seed: number;
  mode: 'parity' | 'fixed';
  lastUsed: number;
  finalText: string | null;
  /** Simulated-user turns served so far (reply). */
  userRounds: number;
  /**
   * The text turns the server saw after the task prompt (reply: the assistant's answer, the simulated user's): the
   * judge's conversation. Tool calls and the text beside them never reach the server, so they are not in it.
   */
  turns: { role: 'assistant' | 'user'; content: string }[];
};

/** Text turns kept per episode for the judge's conversation. */
const MAX_TURNS = 64;

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * Episode ids: 12 random bytes each, drawn from a pool filled 256 ids at a time (one crypto call per
 * 256 episodes rather than per episode: the env server creates thousands a second).
 */
const ID_BYTES = 12;
const idPool = { bytes: Buffer.alloc(0), at: 0 };
function newEpisodeId(): string {
  if (idPool.at + ID_BYTES > idPool.bytes.length) {
    idPool.bytes = randomBytes(ID_BYTES * 256);
    idPool.at = 0;
  }
  const id = `ep_${idPool.bytes.toString('hex', idPool.at, idPool.at + ID_BYTES)}`;
  idPool.at += ID_BYTES;
  return id;
}
const bad = (message: string) => new EnvRequestError(400, 'bad_request', message);

/**
 * The episodes of one package: each a fresh Environment of its task (the package's fixtures, the
 * task's pinned clock), independent of every other. Bounded: a maximum of open episodes, idle
 * expiry, a step limit per episode. Everything is synchronous: requests never interleave inside one.
 */
export class EpisodeStore {
  private readonly episodes = new Map<string, Episode>();
  /** Recently expired ids, so a late call hears "expired" rather than "unknown" (bounded). */
  private readonly expired = new Set<string>();
  /** Per task: the JSON text of the create answer's fixed part (prompt, tools), without its opening brace. */
  private readonly tailText = new WeakMap<ServedTask, string>();
  private readonly clockTexts = new WeakMap<ServedTask, string>();

  constructor(
    readonly pkg: LoadedPackage,
    readonly limits: EpisodeLimits = DEFAULT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  get open(): number {
    return this.episodes.size;
  }

  task(taskId: unknown): ServedTask {
    if (typeof taskId !== 'string' || !taskId) throw bad('task_id: a task id (string) is required');
    const t = this.pkg.tasks.get(taskId);
    if (!t) throw new EnvRequestError(404, 'unknown_task', `task ${taskId} is not in package ${this.pkg.packageId}`);
    return t;
  }

  /** Closes every episode idle for longer than the limit; answers how many. */
  sweep(): number {
    const cutoff = this.now() - this.limits.idleMs;
    let n = 0;
    for (const [id, e] of this.episodes)
      if (e.lastUsed < cutoff) {
        this.episodes.delete(id);
        this.remember(id);
        n++;
      }
    return n;
  }

  private remember(id: string) {
    this.expired.add(id);
    if (this.expired.size > 10_000) this.expired.delete(this.expired.values().next().value!);
  }

  create(body: Record<string, unknown>) {
    const e = this.openEpisode(body);
    return { ...this.createdHead(e), ...this.createdTail(e.task) };
  }

  /**
   * `JSON.stringify(create(body))`, byte for byte, without writing the task's prompt and tool schemas (the
   * bulk of the answer, the same for every episode of a task) again each time: they are written once per task.
   */
  createText(body: Record<string, unknown>): { episodeId: string; text: string } {
    const e = this.openEpisode(body);
    const task = e.task;
    let tail = this.tailText.get(task);
    if (tail === undefined) this.tailText.set(task, (tail = JSON.stringify(this.createdTail(task)).slice(1)));
    const head = JSON.stringify(this.createdHead(e));
    return { episodeId: e.id, text: `${head.slice(0, -1)},${tail}` };
  }

  private createdHead(e: Episode) {
    return {
      episode_id: e.id,
      task_id: e.task.record.task_id,
      package_id: this.pkg.packageId,
      clock: e.clock,
      seed: e.seed,
      mode: e.mode,
      max_turns: e.task.spec.environment.max_turns,
      user_agent: e.task.spec.user_agent?.enabled ?? false,
    };
  }

  private createdTail(task: ServedTask) {
    return {
      prompt: [
        { role: 'system', content: task.record.system_prompt },
        { role: 'user', content: task.spec.prompt.text },
      ],
      tools: task.record.tools,
    };
  }

  private clockText(task: ServedTask): string {
    let text = this.clockTexts.get(task);
    if (text === undefined) this.clockTexts.set(task, (text = task.clock.toISOString()));
    return text;
  }

  /** Checks a create's body and opens the episode. */
  private openEpisode(body: Record<string, unknown>) {
    const task = this.task(body.task_id);
    if (body.package_id != null && body.package_id !== this.pkg.packageId)
      throw new EnvRequestError(
        409,
        'package_mismatch',
        `this server serves package ${this.pkg.packageId}; the request is for package ${String(body.package_id)} ` +
          `(start the server on that package)`,
      );
    const seed = body.seed ?? 0;
    if (!isInt(seed)) throw bad('seed: an integer is expected');
    const mode = body.mode ?? 'parity';
    if (mode !== 'parity' && mode !== 'fixed') throw bad('mode: "parity" or "fixed"');
    // Over HTTP a fraction arrives as a PyFloat (the body is parsed with float fidelity): read its value.
    const rate = numeric(body.error_rate ?? 0);
    if (rate === undefined || !(rate >= 0 && rate <= 1)) throw bad('error_rate: a number from 0 to 1');
    let clock = task.clock;
    if (body.clock != null) {
      clock = new Date(String(body.clock));
      if (typeof body.clock !== 'string' || Number.isNaN(clock.getTime()))
        throw bad('clock: an ISO date-time is expected');
    }
    if (this.episodes.size >= this.limits.maxEpisodes) this.sweep();
    if (this.episodes.size >= this.limits.maxEpisodes)
      throw new EnvRequestError(
        503,
        'too_many_episodes',
        `${this.episodes.size} episodes are open (the limit): close finished episodes, or start the server with a ` +
          `higher limit`,
      );
    const at = clock;
    const env = environmentForSpec(task.spec, task.fixtures, () => at, {
      mode,
      ...(rate > 0 ? { errors: { rate, random: seededRandom(seed) } } : {}),
    });
    const episode: Episode = {
      id: newEpisodeId(),
      task,
      env,
      // The task's own clock (most episodes) is written once per task.
      clock: at === task.clock ? this.clockText(task) : at.toISOString(),
      seed,
      mode,
      lastUsed: this.now(),
      finalText: null,
      userRounds: 0,
      turns: [],
    };
    this.episodes.set(episode.id, episode);
    return episode;
  }

  private episode(id: string): Episode {
    const e = this.episodes.get(id);
    if (e && e.lastUsed >= this.now() - this.limits.idleMs) {
      e.lastUsed = this.now();
      return e;
    }
    if (e) {
      this.episodes.delete(id);
      this.remember(id);
    }
    if (this.expired.has(id))
      throw new EnvRequestError(410, 'episode_expired', `episode ${id} expired after ${this.limits.idleMs} ms idle`);
    throw new EnvRequestError(404, 'unknown_episode', `no episode ${id} (closed, or never created)`);
  }

  /** One tool call. `body` is parsed with float fidelity (328.0 stays a float, as the model wrote it). */
  step(id: string, body: Record<string, PyValue>) {
    const e = this.episode(id);
    if (typeof body.tool !== 'string' || !body.tool) throw bad('tool: the tool name (string) is required');
    if (e.env.dispatches.length >= this.limits.maxStepsPerEpisode)
      throw new EnvRequestError(409, 'step_limit', `episode ${id} reached its ${this.limits.maxStepsPerEpisode} steps`);
    let args: PyValue = body.arguments ?? {};
    // A raw argument string is parsed as the dispatcher does; anything but an object counts as {} (§7.3).
    if (typeof args === 'string') {
      try {
        args = parsePyJson(args);
      } catch {
        args = {};
      }
    }
    if (!isObject(args)) args = {};
    const d = e.env.call(body.tool, args);
    return {
      step: e.env.dispatches.length,
      tool: d.tool,
      status: d.status,
      is_error: d.isError,
      text: d.text,
      latency_ms: d.latencyMs,
      ...(d.delayMs ? { delay_ms: d.delayMs } : {}),
      ...(d.repaired ? { repaired: d.repaired } : {}),
    };
  }

  grade(id: string, body: Record<string, unknown>) {
    const { e, run } = this.gradable(id, body);
    return this.graded(id, e, run);
  }

  /**
   * grade() with an LLM judge for the task's llm_judge checks (`env serve --judge-url`): requests not cached are
   * asked first; a request the judge cannot answer leaves its check pending (`incomplete`, the reason in `judge`).
   */
  async gradeJudged(id: string, body: Record<string, unknown>, judge: EnvJudge) {
    const { e, run } = this.gradable(id, body);
    if (!needsJudge(e.task.spec)) return this.graded(id, e, run);
    const j = await judge.judgeFor(e.task.spec, run);
    return this.graded(id, e, run, j.judge, j.summary);
  }

  private gradable(id: string, body: Record<string, unknown>) {
    const e = this.episode(id);
    for (const k of ['final_text', 'fallback_final_text'])
      if (body[k] != null && typeof body[k] !== 'string') throw bad(`${k}: a string is expected`);
    if (typeof body.final_text === 'string') e.finalText = body.final_text;
    const finalText = e.finalText ?? (body.fallback_final_text as string | undefined) ?? '';
    const audits = Object.fromEntries(Object.entries(e.env.audits()).map(([k, v]) => [k, { ...v }]));
    const turns = [{ role: 'user', content: e.task.spec.prompt.text }, ...e.turns];
    if (finalText && turns.at(-1)?.content !== finalText) turns.push({ role: 'assistant', content: finalText });
    const conversation = formatConversation(turns);
    return { e, run: runRecordFrom(e.env.dispatches.slice(), audits, finalText, undefined, conversation) };
  }

  private graded(
    id: string,
    e: Episode,
    run: ReturnType<typeof runRecordFrom>,
    judge?: Judge,
    summary?: EnvJudgeSummary,
  ) {
    const g = grade(e.task.spec, run, judge);
    return {
      episode_id: id,
      task_id: e.task.record.task_id,
      steps: e.env.dispatches.length,
      final_text: run.finalText,
      score: g.score,
      passed: g.passed,
      completion: g.completion,
      safety: g.safety,
      robustness: g.robustness,
      incomplete: g.incomplete,
      pending_weight: g.pendingWeight,
      checks_origin: g.checksOrigin,
      checks: g.checks,
      safety_violations: g.safetyViolations,
      ...(summary ? { judge: summary } : {}),
    };
  }

  /**
   * The model's answer without a tool call (or its last turn): recorded as the episode's final text, the one
   * the grader reads. With `ask_user` (default) the task's simulated user answers it, as Claw-Eval's user agent:
   * until it says [DONE] or its `max_rounds` are used; a task without one is done at once. The user is the
   * scripted one (hidden facts named by the question, [DONE] otherwise): offline and deterministic.
   */
  reply(id: string, body: Record<string, unknown>) {
    const e = this.episode(id);
    if (typeof body.text !== 'string') throw bad("text: the assistant's answer (string) is required");
    if (body.ask_user != null && typeof body.ask_user !== 'boolean') throw bad('ask_user: a boolean is expected');
    e.finalText = body.text;
    e.turns.push({ role: 'assistant', content: body.text });
    // A task without a simulated user may be replied to any number of times: the judge reads the latest turns.
    if (e.turns.length > MAX_TURNS) e.turns.splice(0, e.turns.length - MAX_TURNS);
    const ua = e.task.spec.user_agent;
    const open = body.ask_user !== false && !!ua?.enabled && e.userRounds < (ua.max_rounds ?? 0);
    const raw = open ? scriptedAnswer(e.task.spec, body.text) : '[DONE]';
    const done = raw.includes('[DONE]');
    if (!done) e.userRounds++, e.turns.push({ role: 'user', content: `[user_agent]\n${raw}` });
    return { episode_id: id, done, user: done ? null : raw, rounds: e.userRounds, final_text: e.finalText };
  }

  info(id: string) {
    const e = this.episode(id);
    return {
      episode_id: id,
      task_id: e.task.record.task_id,
      steps: e.env.dispatches.length,
      clock: e.clock,
      final_text: e.finalText,
    };
  }

  /** The services' audits as JSON text (Python json.dumps, floats kept). */
  auditText(id: string): string {
    const e = this.episode(id);
    return `{${Object.entries(e.env.audits())
      .map(([k, v]) => `${JSON.stringify(k)}: ${dumpsPy(v)}`)
      .join(', ')}}`;
  }

  close(id: string) {
    const e = this.episode(id);
    this.episodes.delete(id);
    return { episode_id: id, closed: true, steps: e.env.dispatches.length };
  }
}
