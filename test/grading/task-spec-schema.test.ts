import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TaskSpec } from '../../src/shared/contract/entities/task-spec';
import { REPO_ROOT } from '../helpers/test-core';

/** docs/task-spec.schema.json is what people write tasks against by hand: it must match the contract. */
const FILE = path.join(REPO_ROOT, 'docs/task-spec.schema.json');
const current = () => `${JSON.stringify(z.toJSONSchema(TaskSpec, { io: 'input', unrepresentable: 'any' }), null, 2)}\n`;

describe('the published TaskSpec JSON Schema', () => {
  it(
    'is up to date (regenerate: UPDATE_TASK_SPEC_SCHEMA=1 npx vitest run -c test/vitest.config.mts ' +
      'test/grading/task-spec-schema)',
    () => {
      if (process.env.UPDATE_TASK_SPEC_SCHEMA) fs.writeFileSync(FILE, current());
      expect(fs.readFileSync(FILE, 'utf8')).toBe(current());
    },
  );

  it('accepts the documented example and rejects a check of an unknown kind', () => {
    const example = JSON.parse(
      fs.readFileSync(path.join(REPO_ROOT, 'docs/examples/helpdesk-triage.task.json'), 'utf8'),
    );
    expect(TaskSpec.safeParse(example).success).toBe(true);
    const bad = { ...example, checks: [{ id: 'x', kind: 'vibes', weight: 1 }] };
    expect(TaskSpec.safeParse(bad).success).toBe(false);
  });
});
