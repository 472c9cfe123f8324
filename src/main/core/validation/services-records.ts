import type { Verdict } from '../../../shared/contract/validation.contract';
import { checkFixture, fixtureRulesOf, type FixtureRules, type RecordIssue } from '../services/fixture-check';
import { fixtureRecords, type PyValue } from '../py/pyjson';
import { SERVICE_REGISTRY } from '../services/registry';
import { verdict, type Message, type ValidationInput } from './types';

const REGISTERED = [...SERVICE_REGISTRY.keys()].join(', ');

type Out = { problems: Message[]; notes: Message[] };

/**
 * One fixture's records. What upstream itself cannot serve (fixture-check.ts: a record that is not an object, lacks a
 * field upstream reads, or stops its start-up) fails every task. Our vocabulary (enum words, e-mail and date formats,
 * counts, fields upstream never reads, duplicate keys) fails generated and hand-written tasks — it is what the
 * generator promises and the fixture grid edits by — but only warns on an imported task: upstream loads records as
 * plain JSON and serves the task as it is, so failing it would call an upstream task broken that upstream runs.
 */
function checkRecords(rules: FixtureRules, records: PyValue, at: string, i: ValidationInput, out: Out): void {
  const { unusable, unusual } = checkFixture(rules, records, i.now);
  const field = (x: RecordIssue) => (x.index === null ? at : `${at}.${x.index}${x.field ? `.${x.field}` : ''}`);
  const valued = (x: RecordIssue) => `${x.value === undefined ? '' : `${x.value} — `}${x.problem}`;
  out.problems.push(...unusable.map((x) => ({ field: field(x), message: valued(x) })));
  if (i.imported)
    out.notes.push(
      ...unusual.map((x) => ({
        field: field(x),
        message: `warning: ${valued(x)} (an imported task: upstream serves it as it is)`,
      })),
    );
  else out.problems.push(...unusual.map((x) => ({ field: field(x), message: x.problem })));
}

/**
 * Validator 2: every service is one we re-host, named once, and every fixture record (inline in
 * the spec, or the stored fixture files of an import, web's page fixtures included) matches that
 * service's record schema — strictly for generated tasks, as warnings for imported ones (checkRecords).
 * A stored file that is not a JSON array is a problem of its own.
 */
export function servicesRecords(input: ValidationInput): Verdict {
  const { spec, fixtures } = input;
  const out: Out = { problems: [], notes: [] };
  const seen = new Map<string, number>();
  spec.services.forEach((s, i) => {
    const def = SERVICE_REGISTRY.get(s.name);
    if (!def)
      return void out.problems.push({
        field: `services.${i}.name`,
        message: `unknown service "${s.name}"; registered: ${REGISTERED}`,
      });
    const first = seen.get(s.name);
    if (first !== undefined)
      out.problems.push({
        field: `services.${i}.name`,
        message: `service "${s.name}" is listed twice (also services.${first})`,
      });
    seen.set(s.name, i);
    const [main, ...extra] = fixtureRulesOf(def);
    if (s.records) return checkRecords(main!, s.records as PyValue[], `services.${i}.records`, input, out);
    for (const [f, at] of [
      [main!, `services.${i}.records`] as const,
      ...extra.map((x) => [x, `services.${i}.fixtures.${x.env}`] as const),
    ]) {
      const stored = fixtures.find((x) => x.service === s.name && x.env === f.env);
      if (!stored) continue; // no file: the service starts empty (import reports it)
      let records: PyValue;
      try {
        records = fixtureRecords(stored);
      } catch (err) {
        out.problems.push({ field: at, message: `fixture file ${f.env} is not valid JSON: ${(err as Error).message}` });
        continue;
      }
      if (!Array.isArray(records))
        out.problems.push({ field: at, message: `fixture file ${f.env} must hold a JSON array of records` });
      else checkRecords(f, records, at, input, out);
    }
  });
  return verdict('services_records', out.problems, out.notes);
}
