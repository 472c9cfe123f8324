import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { describeRecord, type FieldInfo } from '../../src/main/core/services/record-fields';
import { SERVICE_REGISTRY } from '../../src/main/core/services/registry';
import { ok } from '../helpers/call';
import { hasCorpus } from '../helpers/corpus-tasks';
import { CLAW_ROOT } from '../helpers/goldens';
import { FULL_DATA } from '../helpers/shared-data';
import { createTestCore, tempDir } from '../helpers/test-core';

/**
 * Every vocabulary-constrained field of every service's record schema (enum words, e-mail and date formats, whole
 * numbers, lower bounds), set to a value outside that vocabulary but of the right JSON type in a real corpus fixture:
 * upstream loads fixtures as plain JSON, so the task must import (with a warning naming the field and value) and the
 * route that reads the record must answer as upstream's would.
 */
const CLOCK = '2026-03-01T09:00:00Z';

/** The route that reads one record back, and its request for record 0. */
const READ: Record<string, { route: string; args: (r: Record<string, unknown>) => Record<string, unknown> }> = {
  gmail: { route: '/gmail/messages/get', args: (r) => ({ message_id: r.message_id }) },
  calendar: { route: '/calendar/events/get', args: (r) => ({ event_id: r.event_id }) },
  // todo has no get route upstream (Q7): the list returns full records.
  todo: { route: '/todo/tasks', args: () => ({ status: 'all' }) },
  contacts: { route: '/contacts/get', args: (r) => ({ contact_id: r.contact_id }) },
  finance: { route: '/finance/transactions/get', args: (r) => ({ transaction_id: r.transaction_id }) },
  notes: { route: '/notes/get', args: (r) => ({ note_id: r.note_id }) },
  kb: { route: '/kb/articles/get', args: (r) => ({ article_id: r.article_id }) },
  helpdesk: { route: '/helpdesk/tickets/get', args: (r) => ({ ticket_id: r.ticket_id }) },
  inventory: { route: '/inventory/products/get', args: (r) => ({ product_id: r.product_id }) },
  rss: { route: '/rss/articles/get', args: (r) => ({ article_id: r.article_id }) },
  crm: { route: '/crm/customers/get', args: (r) => ({ customer_id: r.customer_id }) },
  config: { route: '/config/integrations/get', args: (r) => ({ integration_id: r.integration_id }) },
  scheduler: { route: '/scheduler/jobs/get', args: (r) => ({ job_id: r.job_id }) },
  web: { route: '/web/fetch', args: (r) => ({ url: r.url }) },
};

/** A value of the field's JSON type that its vocabulary refuses; undefined when the field has no vocabulary. */
function outOfVocabulary(f: FieldInfo, parsedAtLoad: boolean): unknown {
  if (f.type === 'enum') return 'zz_not_in_our_vocabulary';
  if (f.format === 'email') return '王明';
  // gmail and calendar parse their dates at start-up (Python's fromisoformat takes ISO week dates; our format not).
  if (f.type === 'date') return parsedAtLoad ? '2026-W10-1T09:00:00+08:00' : '下周二上午';
  if (f.type === 'integer') return f.min === undefined ? 7.5 : -2.5;
  if (f.type === 'number' && f.min !== undefined) return f.min - 1.5;
  return undefined;
}

const TASKS = path.join(CLAW_ROOT, 'tasks');
const routeOf = (url: string) => new URL(url).pathname;

/** The first corpus task with a tool on `route`, that tool's name, and the task's folder name. */
function taskWithRoute(route: string): { id: string; tool: string } {
  for (const id of fs.readdirSync(TASKS).sort()) {
    const y = YAML.parse(fs.readFileSync(path.join(TASKS, id, 'task.yaml'), 'utf8'), { version: '1.1' }) as {
      tool_endpoints?: { tool_name: string; url: string }[];
    };
    const e = y.tool_endpoints?.find((x) => routeOf(x.url) === route);
    if (e) return { id, tool: e.tool_name };
  }
  throw new Error(`no corpus task calls ${route}`);
}

/** The fixture file a task's service reads: its env value, else the service's default path. */
function fixturePath(id: string, service: string, env: string, dflt: string): string {
  const y = YAML.parse(fs.readFileSync(path.join(TASKS, id, 'task.yaml'), 'utf8'), { version: '1.1' }) as {
    services: { name: string; env?: Record<string, string> }[];
  };
  return y.services.find((s) => s.name === service)?.env?.[env] ?? dflt;
}

describe.skipIf(!hasCorpus)('fixture values outside our vocabularies import with a warning and are served', () => {
  for (const def of SERVICE_REGISTRY.values()) {
    // On the shipped subset a service whose reading route no task calls is skipped; on the full corpora it must exist.
    let found: ReturnType<typeof taskWithRoute> | null = null;
    try {
      found = taskWithRoute(READ[def.id]!.route);
    } catch (e) {
      if (FULL_DATA) throw e;
    }
    const title = found ? def.id : `${def.id} (skipped: no task of the shipped subset calls ${READ[def.id]!.route})`;
    it.skipIf(!found)(title, async () => {
      const { id, tool } = found!;
      const root = tempDir('claw-vocab-');
      fs.cpSync(path.join(TASKS, id), path.join(root, 'tasks', id), { recursive: true });
      const files: { env: string; dflt: string; schema: z.ZodType }[] = [
        { env: def.fixtureEnv, dflt: def.defaultFixture, schema: def.recordSchema },
        ...(def.extraFixtures ?? []).map((x) => ({ env: x.env, dflt: x.defaultFixture, schema: x.recordSchema })),
      ];
      const mutated: { rel: string; field: string; value: unknown }[] = [];
      let record0: Record<string, unknown> = {};
      let readRel = '';
      for (const f of files) {
        const rel = fixturePath(id, def.id, f.env, f.dflt);
        const records = JSON.parse(fs.readFileSync(path.join(CLAW_ROOT, rel), 'utf8')) as Record<string, unknown>[];
        for (const [field, info] of Object.entries(describeRecord(f.schema))) {
          const value = outOfVocabulary(info, def.parsedAtLoad?.includes(field) ?? false);
          if (value === undefined) continue;
          records[0]![field] = value;
          mutated.push({ rel, field, value });
        }
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, rel), JSON.stringify(records, null, 2));
        // The file the read route looks in: web fetches pages (its extra file), the others read their one file.
        if (f.env === (def.id === 'web' ? 'WEB_FETCH_FIXTURES' : def.fixtureEnv))
          [record0, readRel] = [records[0]!, rel];
      }
      expect(mutated.length).toBeGreaterThan(0);

      const { core } = createTestCore({ seedDemo: false });
      const r = await ok(core, 'tasks.import', { paths: [path.join(root, 'tasks', id)] });
      expect(r.outcomes[0]!.errors).toEqual([]);
      expect(r.outcomes[0]!.status).toBe('imported');
      const warnings = r.outcomes[0]!.warnings;
      for (const m of mutated) {
        const w = warnings.find((x) => x.startsWith(`fixture ${m.rel}: record 0 `) && x.includes(`field ${m.field}: `));
        expect(w, `${def.id}.${m.field}`).toContain(`field ${m.field}: ${JSON.stringify(m.value)} — `);
      }

      const replay = await ok(core, 'env.replay', {
        taskId: id,
        clock: CLOCK,
        callsJsonl: JSON.stringify({ tool, args: READ[def.id]!.args(record0) }),
      });
      const d = replay.dispatches[0]!;
      expect(d.status, d.body).toBe(200);
      const body = JSON.parse(d.body) as Record<string, unknown>;
      type Rec = Record<string, unknown>;
      const served = (def.id === 'todo' ? (body.tasks as Rec[])[0] : body) as Rec;
      for (const m of mutated.filter((x) => x.rel === readRel)) {
        // Dates upstream shifts at start-up come back shifted (as upstream prints them); every other value as it is.
        if (def.parsedAtLoad?.includes(m.field)) expect(served[m.field]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        else expect(served[m.field], `${def.id}.${m.field}`).toEqual(m.value);
      }
      await core.close();
    });
  }
});
