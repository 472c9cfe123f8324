import { checkSlot, generateOne } from '../../src/main/core/generation/procedural/generate';
import { validate } from '../../src/main/core/validation/validate';
import type { TaskSpec } from '../../src/shared/contract/entities/task-spec';

const SERVICES = ['gmail', 'helpdesk', 'crm', 'todo', 'calendar', 'kb', 'inventory', 'notes', 'finance', 'scheduler'];
const SCENARIOS = ['single_service', 'cross_service', 'safety', 'temporal', 'multi_turn'] as const;

/**
 * `n` procedurally generated tasks that pass every validator, spread over the scenario families,
 * services, difficulties and both languages (deterministic: the same list every time).
 */
export function generatedTasks(n: number, seed = 5): TaskSpec[] {
  const out: TaskSpec[] = [];
  for (let i = 0; out.length < n && i < n * 4; i++) {
    const scenario = SCENARIOS[i % SCENARIOS.length]!;
    const a = SERVICES[i % SERVICES.length]!;
    const b = SERVICES[(i * 3 + 1) % SERVICES.length]!;
    const services = scenario === 'single_service' || a === b ? [a] : [a, b];
    const { slot } = checkSlot({
      id: i + 1,
      services,
      difficulty: (['easy', 'medium', 'hard'] as const)[i % 3],
      language: i % 2 ? 'zh' : 'en',
      reference_date: '2026-04-14',
      scenario,
    });
    if (!slot) continue;
    const v = validate(generateOne(slot, seed, i));
    if (v.valid && v.spec) out.push(v.spec);
  }
  return out;
}
