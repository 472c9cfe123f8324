import path from 'node:path';
import type { TaskSpec } from '../../../../shared/contract/entities/task-spec';
import { buildSystemPrompt } from '../../agents/system-prompt';
import { fixtureRecords } from '../../py/pyjson';
import { SERVICE_REGISTRY } from '../../services/registry';
import type { ExportTask } from '../export-task';

/** A fixture file of the package: where it is and what it feeds. `inline`: the spec held these records. */
export type PackageFixture = { service: string; env: string; path: string; inline: boolean; content: string };

/** An offered tool in OpenAI's wrapper form (what verl's tool YAML and chat templates take). */
export type OpenAiTool = {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
};

export function openAiTool(t: TaskSpec['tools'][number]): OpenAiTool {
  const schema = t.input_schema;
  const parameters = Object.keys(schema).length ? schema : { type: 'object', properties: {}, required: [] };
  return { type: 'function', function: { name: t.name, description: t.description, parameters } };
}

/**
 * The system prompt of a task's episodes: the one every run and SFT export of the task uses (agents/system-prompt.ts;
 * the tools go in the chat template's tools block), or the export's own base text, plus the simulated user's suffix
 * as Claw-Eval appends it (§4.12).
 */
export function systemPromptOf(spec: TaskSpec, base?: string): string {
  const withUser = !!spec.user_agent?.enabled;
  if (base === undefined) return buildSystemPrompt(spec, withUser);
  const suffix = withUser ? spec.user_agent!.system_prompt_suffix : '';
  return suffix ? `${base}\n\n${suffix}` : base;
}

/**
 * Every fixture file of a task as the package stores it, under fixtures/<task_id>/<service>/: the
 * spec's inline records as JSON (generated and hand-written tasks), the stored files verbatim
 * (imports; the same bytes upstream's mocks would read).
 */
export function packageFixtures(task: ExportTask): PackageFixture[] {
  const { spec } = task;
  const out: PackageFixture[] = [];
  const taken = new Set<string>();
  const place = (service: string, env: string, file: string) => {
    let rel = `fixtures/${spec.task_id}/${service}/${file}`;
    if (taken.has(rel)) rel = `fixtures/${spec.task_id}/${service}/${env}.json`;
    taken.add(rel);
    return rel;
  };
  for (const s of spec.services) {
    const def = SERVICE_REGISTRY.get(s.name);
    const mainEnv = def?.fixtureEnv ?? `${s.name.toUpperCase()}_FIXTURES`;
    if (s.records) {
      const file = def ? path.posix.basename(def.defaultFixture) : 'records.json';
      out.push({
        service: s.name,
        env: mainEnv,
        path: place(s.name, mainEnv, file),
        inline: true,
        content: `${JSON.stringify(s.records, null, 2)}\n`,
      });
    }
    for (const f of task.fixtures) {
      if (f.service !== s.name || (s.records && f.env === mainEnv)) continue;
      const dflt = [
        def?.defaultFixture,
        ...(def?.extraFixtures ?? []).filter((x) => x.env === f.env).map((x) => x.defaultFixture),
      ];
      const base = f.source ?? (f.env === mainEnv ? dflt[0] : dflt[1]) ?? `${f.env}.json`;
      out.push({
        service: s.name,
        env: f.env,
        path: place(s.name, f.env, path.posix.basename(base)),
        inline: false,
        content: f.content,
      });
    }
  }
  return out;
}

export const recordCount = (f: { content: string }): number => {
  const v = fixtureRecords(f);
  return Array.isArray(v) ? v.length : 0;
};

/** The spec as tasks.jsonl holds it: inline records moved out to their fixture files. */
export function specWithoutRecords(spec: TaskSpec): TaskSpec {
  return {
    ...spec,
    services: spec.services.map((s) => {
      const { records: _records, ...rest } = s;
      return rest;
    }),
  };
}

/**
 * What verl's tool loader demands of a tool schema (verl/tools/schemas.py): parameters of type
 * object whose every property declares a `type`. Answers one message per violation.
 */
export function verlToolProblems(spec: TaskSpec): string[] {
  const out: string[] = [];
  for (const t of spec.tools) {
    const p = openAiTool(t).function.parameters as { type?: unknown; properties?: Record<string, unknown> };
    if (typeof p.type !== 'string') out.push(`${spec.task_id}: tool ${t.name}: input_schema has no "type"`);
    for (const [k, v] of Object.entries(p.properties ?? {}))
      if (!v || typeof v !== 'object' || !('type' in v))
        out.push(
          `${spec.task_id}: tool ${t.name}: property "${k}" has no "type" (verl's OpenAIFunctionPropertySchema ` +
            `requires one)`,
        );
  }
  return out;
}
