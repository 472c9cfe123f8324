import path from 'node:path';
import YAML from 'yaml';
import type { Check, ProhibitedRule } from '../../../../shared/contract/entities/checks';
import type { TaskSpec } from '../../../../shared/contract/entities/task-spec';
import { SERVICE_REGISTRY } from '../../services/registry';
import type { ExportTask } from '../export-task';
import { BLOCK_FORMAT, DECLARATIVE_KEYS, type CoworkenvBlock } from '../../tasks/claw-eval/coworkenv-block';

/** A file of the export, relative to the Claw-Eval root (`tasks/<id>/…`). */
export type RootFile = { path: string; content: string };

/** The TaskSpec keys written at task.yaml's top level (the rest go in the coworkenv block). */
const SHARED_KEYS = new Set([
  'task_id',
  'task_name',
  'version',
  'category',
  'difficulty',
  'tags',
  'prompt',
  'services',
  'tools',
  'tool_endpoints',
  'environment',
  'user_agent',
  'judge_rubric',
  'reference_solution',
]);
const BLOCK_KEYS = new Set([
  'language',
  'scenario',
  'reference_date',
  'slot_id',
  'checks',
  'prohibited',
  'reference_plan',
  'reference_final_text',
  'checks_origin',
]);

/** Claw-Eval's declarative scoring fields for a reader of the YAML (never executed upstream, §4.8). */
function declarative(spec: TaskSpec) {
  const component = (c: Check) => {
    const check: Record<string, unknown> =
      c.kind === 'tool_called'
        ? { type: 'tool_called', tool_name: c.tool, min_calls: c.min_count }
        : c.kind === 'llm_judge'
          ? { type: 'llm_judge', rubric: c.rubric }
          : c.kind === 'audit'
            ? { type: 'audit_record', description: `${c.service}.${c.action_key}` }
            : c.contains_all?.length || c.contains_any?.length
              ? { type: 'keywords_present', field: 'final_text', keywords: c.contains_all ?? c.contains_any }
              : c.regex !== undefined
                ? { type: 'pattern_present', field: 'final_text', patterns: [c.regex] }
                : { type: 'min_length', field: 'final_text', min_length: c.min_length ?? 1 };
    return {
      name: c.id,
      weight: c.weight,
      check: { ...check, description: c.description || check.description || c.id },
    };
  };
  const safety = (r: ProhibitedRule) =>
    r.kind === 'tool'
      ? { type: 'tool_not_called', tool_name: r.tool, description: r.description }
      : r.kind === 'assistant_text'
        ? { type: 'marker_not_in_output', patterns: r.contains_any, description: r.description }
        : r.kind === 'judge'
          ? { type: 'custom', description: r.description || r.rubric }
          : { type: 'audit_record_absent', description: r.description || `${r.service}.${r.action_key}` };
  return {
    scoring_components: spec.checks.map(component),
    safety_checks: spec.prohibited.map(safety),
    expected_actions: spec.checks.flatMap((c) =>
      c.kind === 'audit' ? [{ service: c.service, action_key: c.action_key, required: true }] : [],
    ),
    primary_dimensions: ['completion', 'safety', 'robustness'],
  };
}

/**
 * A TaskSpec as a Claw-Eval task folder: task.yaml (upstream's fields, services pointing at the
 * fixture files by root-relative paths as upstream does, the coworkenv block) and the fixture files
 * (the spec's inline records; a web service's missing page file as an empty array, so upstream's
 * mock and our importer find every file they look for).
 */
export function taskFolderOf(task: ExportTask): { yaml: string; files: RootFile[] } {
  const { spec } = task;
  const dir = `tasks/${spec.task_id}`;
  const files: RootFile[] = [];
  const services = spec.services.map((s) => {
    const def = SERVICE_REGISTRY.get(s.name);
    if (!def) throw new Error(`${spec.task_id}: service ${s.name} is not one Claw-Eval's harness can run`);
    const port = s.port ?? def.port;
    const env: Record<string, string> = {};
    const mains = [
      { env: def.fixtureEnv, dflt: def.defaultFixture },
      ...(def.extraFixtures ?? []).map((x) => ({ env: x.env, dflt: x.defaultFixture })),
    ];
    mains.forEach((m, i) => {
      const rel = `${dir}/fixtures/${s.name}/${path.posix.basename(m.dflt)}`;
      const stored = task.fixtures.find((f) => f.service === s.name && f.env === m.env);
      const content = i === 0 && s.records ? `${JSON.stringify(s.records, null, 2)}\n` : (stored?.content ?? '[]\n');
      files.push({ path: rel, content });
      env[m.env] = rel;
    });
    return {
      name: s.name,
      command: `python mock_services/${s.name}/server.py`,
      port,
      health_check: `http://localhost:${port}${def.probe.path}`,
      health_check_method: def.probe.method,
      ready_timeout: 10,
      reset_endpoint: `http://localhost:${port}/${s.name}/reset`,
      env,
    };
  });
  const loose = Object.fromEntries(Object.entries(spec).filter(([k]) => !SHARED_KEYS.has(k) && !BLOCK_KEYS.has(k)));
  const own = DECLARATIVE_KEYS.filter((k) => k in loose);
  const extra = Object.fromEntries(
    Object.entries(loose).filter(([k]) => !(DECLARATIVE_KEYS as readonly string[]).includes(k)),
  );
  const block: CoworkenvBlock = {
    format: BLOCK_FORMAT,
    language: spec.language,
    ...(spec.scenario !== undefined ? { scenario: spec.scenario } : {}),
    ...(spec.reference_date !== undefined ? { reference_date: spec.reference_date } : {}),
    ...(spec.slot_id !== undefined ? { slot_id: spec.slot_id } : {}),
    services: spec.services.map(({ records, ...s }) => ({ ...s, inline: records !== undefined })),
    checks: spec.checks,
    prohibited: spec.prohibited,
    ...(spec.safety_unevaluable?.length ? { safety_unevaluable: spec.safety_unevaluable } : {}),
    ...(spec.reference_plan !== undefined ? { reference_plan: spec.reference_plan } : {}),
    ...(spec.reference_final_text !== undefined ? { reference_final_text: spec.reference_final_text } : {}),
    checks_origin: spec.checks_origin,
    own_declarative: own,
    extra,
  };
  const doc = {
    task_id: spec.task_id,
    task_name: spec.task_name,
    version: spec.version,
    category: spec.category,
    difficulty: spec.difficulty,
    tags: spec.tags,
    prompt: spec.prompt,
    tools: spec.tools,
    tool_endpoints: spec.tool_endpoints,
    environment: spec.environment,
    services,
    ...declarative(spec),
    ...Object.fromEntries(own.map((k) => [k, loose[k]])),
    judge_rubric: spec.judge_rubric,
    reference_solution: spec.reference_solution,
    ...(spec.user_agent !== undefined ? { user_agent: spec.user_agent } : {}),
    coworkenv: block,
  };
  // YAML 1.1, as PyYAML reads it: strings such as 15:00, yes or 2026-04-10 are quoted, so they stay strings.
  const yaml = YAML.stringify(doc, { version: '1.1', lineWidth: 0, aliasDuplicateObjects: false });
  return {
    yaml: `# Written by CoworkEnv Studio from a TaskSpec; the coworkenv block keeps its grading data.\n${yaml}`,
    files,
  };
}
