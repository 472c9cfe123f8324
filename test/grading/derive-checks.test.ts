import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveTaskSpec } from '../../src/main/core/tasks/claw-eval/derive-checks';
import { readClawTask } from '../../src/main/core/tasks/claw-eval/read-task';
import { locateTasks } from '../../src/main/core/tasks/claw-eval/task-files';
import { CLAW_ROOT } from '../helpers/goldens';

const hasCorpus = fs.existsSync(path.join(CLAW_ROOT, 'tasks'));
const derived = (id: string) => deriveTaskSpec(readClawTask(locateTasks(path.join(CLAW_ROOT, 'tasks', id))[0]!).spec);

describe.skipIf(!hasCorpus)('checks derived from Claw-Eval task.yaml', () => {
  it('every corpus task yields a valid TaskSpec whose weights sum to 1, marked as derived', () => {
    for (const loc of locateTasks(CLAW_ROOT)) {
      const { spec } = deriveTaskSpec(readClawTask(loc).spec);
      expect(spec.checks_origin).toBe('derived_from_task_yaml');
      expect(spec.checks.length, spec.task_id).toBeGreaterThan(0);
      expect(Math.abs(spec.checks.reduce((s, c) => s + c.weight, 0) - 1), spec.task_id).toBeLessThan(1e-9);
    }
  });

  it('an expected action the service never records (Q9) is noted, not made a check no run meets', () => {
    const { spec, notes } = derived('T039zh_onboarding_coordinator');
    const audits = spec.checks.flatMap((c) => (c.kind === 'audit' ? [`${c.service}.${c.action_key}`] : []));
    expect(audits).toEqual(['gmail.drafts', 'calendar.created_events']);
    expect(notes).toContain(
      'expected action gmail.sent is not checked: the gmail service never records "sent" (it records ' +
        'sent_messages, drafts)',
    );
    expect(notes.join('\n')).toMatch(/expected action todo\.created_tasks is not checked/);
  });

  it('T021 declares weights summing to 0.9: normalised, and said so', () => {
    const { spec, notes } = derived('T021zh_newsletter_curation');
    expect(notes.join('\n')).toMatch(/scoring_components weights sum to 0\.9; all weights normalised/);
    expect(spec.checks.reduce((s, c) => s + c.weight, 0)).toBeCloseTo(1, 12);
  });

  it('maps kinds: keywords → final_text, tool_called, expected_actions → audit, tool_not_called → prohibited', () => {
    const { spec } = derived('T006_email_reply_draft');
    expect(spec.prohibited).toEqual([expect.objectContaining({ kind: 'tool', tool: 'gmail_send_message' })]);
    expect(spec.checks.find((c) => c.kind === 'audit')).toMatchObject({
      service: 'gmail',
      action_key: 'drafts',
      min_count: 1,
    });
    expect(spec.checks.filter((c) => c.kind !== 'audit').length).toBeGreaterThan(0);
    const t029 = derived('T029zh_cross_service_meeting').spec;
    // The YAML 1.1 keyword 15:00 loads as 900 upstream, and is kept as upstream has it.
    expect(t029.checks.some((c) => c.kind === 'final_text' && (c.contains_all ?? []).includes('900'))).toBe(true);
  });
});
