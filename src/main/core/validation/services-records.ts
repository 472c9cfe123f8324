import type { z } from 'zod';
import type { Verdict } from '../../../shared/contract/validation.contract';
import { fixtureRecords, toPlain, type PyValue } from '../services/pyjson';
import { SERVICE_REGISTRY } from '../services/registry';
import { fieldOf, verdict, type Message, type ValidationInput } from './types';

const REGISTERED = [...SERVICE_REGISTRY.keys()].join(', ');

function checkRecords(records: readonly unknown[], schema: z.ZodType, key: string, at: string, out: Message[]): void {
  const seen = new Map<unknown, number>();
  records.forEach((r, j) => {
    const res = schema.safeParse(r);
    if (!res.success)
      for (const i of res.error.issues)
        out.push({ field: `${at}.${j}${i.path.length ? `.${fieldOf(i.path)}` : ''}`, message: i.message });
    // The record key identifies a record (tools look records up by it): two records with one key shadow each other.
    const k = (r as Record<string, unknown> | null)?.[key];
    if (k === undefined || k === null) return;
    const first = seen.get(k);
    if (first !== undefined)
      out.push({ field: `${at}.${j}.${key}`, message: `duplicate ${key} ${JSON.stringify(k)} (also record ${first})` });
    else seen.set(k, j);
  });
}

/**
 * Validator 2: every service is one we re-host, named once, and every fixture record (inline in
 * the spec, or the stored fixture files of an import, web's page fixtures included) matches that
 * service's record schema. A stored file that is not a JSON array is a problem of its own.
 */
export function servicesRecords({ spec, fixtures }: ValidationInput): Verdict {
  const out: Message[] = [];
  const seen = new Map<string, number>();
  spec.services.forEach((s, i) => {
    const def = SERVICE_REGISTRY.get(s.name);
    if (!def)
      return void out.push({
        field: `services.${i}.name`,
        message: `unknown service "${s.name}"; registered: ${REGISTERED}`,
      });
    const first = seen.get(s.name);
    if (first !== undefined)
      out.push({
        field: `services.${i}.name`,
        message: `service "${s.name}" is listed twice (also services.${first})`,
      });
    seen.set(s.name, i);
    if (s.records) return checkRecords(s.records, def.recordSchema, def.recordKey, `services.${i}.records`, out);
    const files = [
      { env: def.fixtureEnv, schema: def.recordSchema, key: def.recordKey, at: `services.${i}.records` },
      ...(def.extraFixtures ?? []).map((x) => ({
        env: x.env,
        schema: x.recordSchema,
        key: x.recordKey,
        at: `services.${i}.fixtures.${x.env}`,
      })),
    ];
    for (const f of files) {
      const stored = fixtures.find((x) => x.service === s.name && x.env === f.env);
      if (!stored) continue; // no file: the service starts empty (import reports it)
      let records: PyValue;
      try {
        records = fixtureRecords(stored);
      } catch (err) {
        out.push({ field: f.at, message: `fixture file ${f.env} is not valid JSON: ${(err as Error).message}` });
        continue;
      }
      if (!Array.isArray(records))
        out.push({ field: f.at, message: `fixture file ${f.env} must hold a JSON array of records` });
      else checkRecords(records.map(toPlain), f.schema, f.key, f.at, out);
    }
  });
  return verdict('services_records', out);
}
