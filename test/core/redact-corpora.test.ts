import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactText, redactValue } from '../../src/main/core/lib/redact';
import { dumpsPy, fixtureRecords } from '../../src/main/core/py/pyjson';
import { CLAW_ROOT, SHARED } from '../helpers/goldens';
import { FULL_DATA } from '../helpers/shared-data';

/**
 * No false positives on real text: every message of the τ-bench and τ²-bench trajectories and every
 * Claw-Eval task (prompt, rubric, fixtures) goes through the redactor. The only hits are the fake
 * credentials Claw-Eval's API-config-audit tasks plant on purpose (and must be caught).
 */
const TRAJ = path.join(SHARED, 'corpora/trajectories');
const hasCorpora = fs.existsSync(TRAJ) && fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const json = (rel: string) => JSON.parse(fs.readFileSync(path.join(TRAJ, rel), 'utf8'));
/** Messages and strings in a value, to show how much was scanned. */
function census(v: unknown): number {
  if (typeof v === 'string') return 1;
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + census(x), 0);
  if (v && typeof v === 'object') return Object.values(v).reduce((n: number, x) => n + census(x), 0);
  return 0;
}

// The counts in the titles are those of the full corpora; on the shipped subset the same checks run on less.
describe.skipIf(!hasCorpora)('redaction on the real corpora', () => {
  it('τ-bench: 200 trajectories, 5,308 messages, nothing redacted', () => {
    const data = json('tau-bench/gpt-4o-airline.json') as { traj: unknown[] }[];
    if (FULL_DATA) {
      expect(data.length).toBe(200);
      expect(data.reduce((n, t) => n + t.traj.length, 0)).toBe(5308);
    }
    // Strings scanned, to show it is more than the messages' texts.
    expect(census(data)).toBeGreaterThan(FULL_DATA ? 20_000 : data.reduce((n, t) => n + t.traj.length, 0));
    const { value, report } = redactValue(data);
    expect(report.where).toEqual([]);
    expect(value).toBe(data);
  });

  it('τ²-bench: 20 simulations (510 messages) and 37 SFT rows (1,050 messages), nothing redacted', () => {
    const sims = json('tau2-bench/gpt-4.1_airline_default_gpt-4.1_1trials.json') as { simulations: { messages: [] }[] };
    if (FULL_DATA) expect(sims.simulations.reduce((n, s) => n + s.messages.length, 0)).toBe(510);
    expect(redactValue(sims).report.where).toEqual([]);
    const rows = fs
      .readFileSync(path.join(TRAJ, 'tau2-bench/train_sft-v1-small.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { messages: unknown[] });
    if (FULL_DATA) expect(rows.reduce((n, r) => n + r.messages.length, 0)).toBe(1050);
    expect(redactValue(rows).report.where).toEqual([]);
  });

  const tasks = () => fs.readdirSync(path.join(CLAW_ROOT, 'tasks')).sort();
  const fixtureFiles = (task: string): string[] => {
    const walk = (d: string): string[] =>
      fs.existsSync(d)
        ? fs
            .readdirSync(d, { withFileTypes: true })
            .flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]))
        : [];
    return walk(path.join(CLAW_ROOT, 'tasks', task, 'fixtures')).filter((f) => f.endsWith('.json'));
  };
  const AUDIT = ['T027zh_api_config_audit', 'T028_api_config_audit'];

  it('Claw-Eval: 44 task.yaml texts and their fixtures: only the planted credentials of T027/T028', () => {
    if (FULL_DATA) expect(tasks().length).toBe(44);
    const hits: string[] = [];
    for (const t of tasks()) {
      const yaml = fs.readFileSync(path.join(CLAW_ROOT, 'tasks', t, 'task.yaml'), 'utf8');
      if (Object.keys(redactText(yaml).counts).length) hits.push(`${t}/task.yaml`);
      for (const f of fixtureFiles(t)) {
        const { report } = redactValue(fixtureRecords({ content: fs.readFileSync(f, 'utf8') }));
        for (const w of report.where) hits.push(`${path.relative(path.join(CLAW_ROOT, 'tasks'), f)}#${w.path}`);
      }
    }
    const planted = [
      '0.api_key',
      '0.api_secret',
      '1.api_key',
      '2.api_key',
      '2.api_secret',
      '3.api_key',
      '3.api_secret',
    ];
    planted.push('4.api_key', '5.api_key', '5.api_secret', '6.notes', '6.connection_string');
    expect(hits).toEqual(AUDIT.flatMap((t) => planted.map((p) => `${t}/fixtures/config/integrations.json#${p}`)));
  });

  it('Claw-Eval T028: as a tool result (the JSON text the model sees) every planted credential is redacted', () => {
    const records = fixtureRecords({
      content: fs.readFileSync(path.join(CLAW_ROOT, 'tasks', AUDIT[1]!, 'fixtures/config/integrations.json'), 'utf8'),
    }) as Record<string, unknown>[];
    const secrets = records.flatMap((r) => [r.api_key, r.api_secret]).filter((s): s is string => typeof s === 'string');
    expect(secrets.length).toBe(10);
    const toolResult = dumpsPy({ integrations: records } as never);
    const { text, counts } = redactText(toolResult);
    for (const s of secrets) expect(text, s).not.toContain(s);
    expect(text).not.toContain('Sup3rS3cr3t');
    expect(text).toContain('"name": "Stripe Payment Gateway"');
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(12);
    // The export may keep a task's own planted values on purpose: `allow`.
    expect(redactText(toolResult, new Set(secrets)).text).toContain(secrets[0]);
  });
});
