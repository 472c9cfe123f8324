import { finishedJob } from '../cli/finished-job';
import { jobResult } from '../../../shared/contract/job-result';
import type { Input } from '../../../shared/contract';
import { bool, defineCommand, intFlag, str, type CommandArgs, type RunContext } from '../cli/command';

const USAGE =
  'run --tasks <ids|all> [--where JSON] --agent reference|endpoint:NAME [--user scripted|endpoint:NAME] ' +
  '[--trials 3] [--concurrency 4] [--collection NAME] [--seed N] [--clean] [--json]   |   run --resume RUN_ID';

type StartInput = Input<'runs.start'>;

/** `endpoint:NAME` → NAME; `reference` / `scripted` → null; anything else → undefined. */
function party(v: string, plain: string): string | null | undefined {
  if (v === plain) return null;
  const m = /^endpoint:(.+)$/.exec(v);
  return m ? m[1]! : undefined;
}

function rate(raw: string | undefined, name: string): number | string | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return raw.trim() !== '' && n >= 0 && n <= 1 ? n : `--${name} must be a rate from 0 to 1, not "${raw}"`;
}

/** The flags as runs.start's input, or a usage message. */
function startInput(flags: CommandArgs['flags']): StartInput | string {
  const tasks = str(flags, 'tasks');
  const whereText = str(flags, 'where');
  if (tasks === undefined && whereText === undefined) return 'give --tasks <ids|all> (or --where JSON)';
  let where: StartInput['where'];
  if (whereText !== undefined) {
    try {
      const w = JSON.parse(whereText) as unknown;
      where = (Array.isArray(w) ? { filters: w } : w) as StartInput['where'];
    } catch (err) {
      return `--where is not JSON: ${(err as Error).message}`;
    }
  }
  const agentFlag = str(flags, 'agent');
  if (!agentFlag) return 'give --agent reference or --agent endpoint:NAME';
  const agentEndpoint = party(agentFlag, 'reference');
  if (agentEndpoint === undefined) return `--agent must be reference or endpoint:NAME, not "${agentFlag}"`;
  const userFlag = str(flags, 'user') ?? 'scripted';
  const userEndpoint = party(userFlag, 'scripted');
  if (userEndpoint === undefined) return `--user must be scripted or endpoint:NAME, not "${userFlag}"`;
  const ints = {
    trials: intFlag(flags, 'trials', { min: 1, max: 1000, fallback: 3 }),
    concurrency: intFlag(flags, 'concurrency', { min: 1, max: 64, fallback: 4 }),
    seed: intFlag(flags, 'seed', { min: 0, max: 2 ** 31, fallback: 0 }),
    maxAttempts: intFlag(flags, 'max-attempts', { min: 1, max: 20, fallback: 4 }),
  };
  for (const v of Object.values(ints)) if (!v.ok) return v.message;
  const value = (k: keyof typeof ints) => (ints[k] as { value: number }).value;
  const rates = {
    skip_step: rate(str(flags, 'skip-step'), 'skip-step'),
    wrong_argument: rate(str(flags, 'wrong-argument'), 'wrong-argument'),
    prohibited_call: rate(str(flags, 'prohibited-call'), 'prohibited-call'),
  };
  for (const v of Object.values(rates)) if (typeof v === 'string') return v;
  const given = Object.values(rates).some((r) => r !== undefined);
  const clean = bool(flags, 'clean');
  if (agentEndpoint !== null && (str(flags, 'seed') !== undefined || given || clean))
    return '--seed, --clean and the perturbation rates are for the reference agent';
  if (clean && given) return '--clean replays plainly: it takes no perturbation rates';
  // No rate given: the default mix (perturb-mix.ts); a rate given: those rates (the others 0) for every task.
  const perturbations = given ? Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, v ?? 0])) : undefined;
  const collection = str(flags, 'collection');
  return {
    tasks:
      tasks === undefined || tasks === 'all'
        ? 'all'
        : tasks
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
    ...(where ? { where } : {}),
    agent:
      agentEndpoint === null
        ? { kind: 'reference', seed: value('seed'), clean, ...(perturbations ? { perturbations } : {}) }
        : { kind: 'endpoint', endpoint: agentEndpoint },
    user: userEndpoint === null ? { kind: 'scripted' } : { kind: 'endpoint', endpoint: userEndpoint },
    trials: value('trials'),
    concurrency: value('concurrency'),
    maxAttempts: value('maxAttempts'),
    ...(collection ? { collection } : {}),
  };
}

async function startOrResumeRun({ flags }: CommandArgs, ctx: RunContext): Promise<number> {
  const resume = str(flags, 'resume');
  let jobId: string;
  if (resume !== undefined) {
    const id = Number(resume);
    if (!Number.isInteger(id)) return ctx.usage(`--resume takes a run id (a number), not "${resume}"`);
    const run = await ctx.call('runs.get', { id });
    if (!run.ok) return ctx.print(run);
    if (run.data.kind !== 'run' || !run.data.job_id) return ctx.usage(`run ${id} is not an agent run`);
    const r = await ctx.call('jobs.resume', { id: run.data.job_id });
    if (!r.ok) return ctx.print(r);
    jobId = r.data.jobId;
  } else {
    const input = startInput(flags);
    if (typeof input === 'string') return ctx.usage(`${input}\nusage: coworkenv ${USAGE}`);
    const started = await ctx.call('runs.start', input);
    if (!started.ok) return ctx.print(started);
    jobId = started.data.jobId;
  }
  const job = await finishedJob(ctx, jobId, {
    ended: (state) => `the run was ${state}`,
    explain: (message) => `${message}; \`coworkenv run --resume <run id>\` goes on with the pairs not yet stored`,
  });
  if (!job) return 1;
  const r = jobResult(job, 'runs.start');
  if (ctx.json) ctx.out(`${JSON.stringify({ ok: true, data: r })}\n`);
  else {
    const score = r.mean_score === null ? '–' : r.mean_score.toFixed(4);
    ctx.out(
      `run ${r.runId} (${r.agent} → collection ${r.collection}): ${r.stored} of ${r.planned} trajectories stored` +
        `${r.skipped ? ` (${r.skipped} from before the resume)` : ''}, ${r.errors} errors; ` +
        `pass rate ${(100 * r.pass_rate).toFixed(1)}% (${r.passed} of ${r.graded} graded), mean score ${score}, ` +
        `${r.tokens.toLocaleString('en-US')} tokens\n` +
        `coworkenv report --run ${r.runId} shows Pass@k and Pass^k\n`,
    );
  }
  // Errored trajectories are stored but not graded: say so with the exit code, as an import does for refusals.
  return r.errors > 0 || r.stored < r.planned ? 1 : 0;
}

export const runCommand = defineCommand({
  words: ['run'],
  summary: 'run an agent on tasks for k trials: each trajectory graded and stored as it finishes (a job)',
  options: {
    tasks: { type: 'string', value: 'IDS', description: 'comma-separated task ids, or all' },
    where: { type: 'string', value: 'JSON', description: 'a tasks-grid filter: {"filters":[…],"quick":"…"} or [..]' },
    agent: { type: 'string', value: 'AGENT', description: 'reference (replays reference plans) or endpoint:NAME' },
    user: { type: 'string', value: 'USER', description: 'simulated user: scripted (default) or endpoint:NAME' },
    trials: { type: 'string', value: 'K', description: 'trials per task (default 3)' },
    concurrency: { type: 'string', value: 'N', description: 'episodes at once (default 4)' },
    collection: { type: 'string', value: 'NAME', description: 'where the trajectories go (default: a new one)' },
    seed: { type: 'string', value: 'N', description: 'reference agent: seed of its perturbations (default 0)' },
    clean: { type: 'boolean', description: 'reference agent: plain replays (default: the seeded perturbation mix)' },
    'skip-step': { type: 'string', value: 'RATE', description: 'reference agent: chance to skip each plan step' },
    'wrong-argument': { type: 'string', value: 'RATE', description: 'reference agent: chance of a wrong argument' },
    'prohibited-call': { type: 'string', value: 'RATE', description: 'reference agent: chance of a prohibited call' },
    'max-attempts': { type: 'string', value: 'N', description: 'attempts per model call on 429/5xx/timeouts (4)' },
    resume: { type: 'string', value: 'RUN_ID', description: 'go on with an interrupted or cancelled run' },
  },
  details: [
    'Progress (done/total, pass rate so far, errors, tokens) goes to stderr; Ctrl+C cancels, and',
    '`coworkenv run --resume RUN_ID` goes on after a cancel or a crash, skipping the pairs already stored.',
    'The reference agent perturbs its replays by default (seeded: each task steady, flaky or failing, so',
    'curation sees KEEP, TRIVIAL and UNSOLVABLE and RL groups a reward spread); --clean replays plainly,',
    'and --skip-step / --wrong-argument / --prohibited-call set the same rates for every task instead.',
    'Exit code 1 when a trajectory errored (a model that still failed after retries) or the run did not finish.',
  ],
  run: startOrResumeRun,
});
