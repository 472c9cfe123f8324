import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrace, TraceError } from '../../src/main/core/traces';

const EDGE = fs.readFileSync(path.join(__dirname, 'fixtures/edge.jsonl'), 'utf8');
const LINES = EDGE.trimEnd().split('\n');
type Ev = Record<string, unknown> & { type: string };
const events = () => LINES.map((l) => JSON.parse(l) as Ev);
const jsonl = (evs: (Ev | string)[]) =>
  `${evs.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n')}\n`;
/** Line 5 is the first assistant message (toolu_a, toolu_b); line 6 the dispatch of toolu_a; line 8 their results. */
const edit = (line: number, f: (e: Ev) => Ev | string) => jsonl(events().map((e, i) => (i + 1 === line ? f(e) : e)));

function issuesOf(text: string) {
  try {
    readTrace(text);
  } catch (err) {
    expect(err).toBeInstanceOf(TraceError);
    return { issues: (err as TraceError).issues, message: (err as Error).message };
  }
  throw new Error('the trace was read without an error');
}

describe('bad traces: a clear error naming each bad line, never a crash', () => {
  it.each<[string, () => string, number, RegExp]>([
    [
      'an unknown event type',
      () => edit(12, (e) => ({ ...e, type: 'checkpoint' })),
      12,
      /unknown event type "checkpoint"; known: trace_start, message,/,
    ],
    ['an event without a type', () => edit(2, ({ type: _t, ...e }) => e as Ev), 2, /unknown event type null/],
    [
      'a truncated last line',
      () => EDGE.slice(0, EDGE.length - 40),
      23,
      /not valid JSON .*the last line looks truncated/,
    ],
    [
      'a broken line in the middle',
      () => edit(7, (e) => JSON.stringify(e).replace('"tool_name":', '"tool_name"')),
      7,
      /not valid JSON \(/,
    ],
    ['a line that is not an object', () => edit(3, () => '[1, 2]'), 3, /not a JSON object/],
    [
      'a tool_result whose tool_use_id matches no earlier tool_use',
      () =>
        edit(8, (e) => JSON.parse(JSON.stringify(e).replace('"tool_use_id":"toolu_b"', '"tool_use_id":"toolu_zz"'))),
      8,
      /tool_result for an unknown call: tool_use_id "toolu_zz" matches no earlier tool_use/,
    ],
    [
      'a tool_result for a call made only later',
      () => edit(8, (e) => JSON.parse(JSON.stringify(e).replace('"tool_use_id":"toolu_b"', '"tool_use_id":"toolu_c"'))),
      8,
      /tool_use_id "toolu_c" matches no earlier tool_use/,
    ],
    [
      'a tool_dispatch for an unknown call',
      () => edit(6, (e) => ({ ...e, tool_use_id: 'toolu_nope' })),
      6,
      /tool_dispatch for an unknown call: tool_use_id "toolu_nope" matches no earlier tool_use/,
    ],
    [
      'a tool_dispatch of another tool than its call',
      () => edit(6, (e) => ({ ...e, tool_name: 'gmail_send_message' })),
      6,
      /tool_dispatch of gmail_send_message, but call toolu_a \(line 5\) is a call of finance_get_transaction/,
    ],
    [
      'a field of the wrong type',
      () => edit(6, (e) => ({ ...e, response_status: '200' })),
      6,
      /tool_dispatch\.response_status: /,
    ],
    [
      'a float where an int belongs',
      () => edit(21, (e) => ({ ...e, total_turns: 5.5 })),
      21,
      /trace_end\.total_turns: /,
    ],
    ['a missing required field', () => edit(2, ({ sha256: _s, ...e }) => e as Ev), 2, /media_load\.sha256: /],
    [
      'a content block of an unknown type',
      () => edit(5, (e) => ({ ...e, message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm' }] } })),
      5,
      /message\.message\.content\.0/,
    ],
    [
      'a role the format does not have',
      () => edit(4, (e) => ({ ...e, message: { role: 'tool', content: [] } })),
      4,
      /message\.message\.role: /,
    ],
    ['no trace_start', () => jsonl(events().slice(1)), 1, /no trace_start event/],
    [
      'a second trace_start',
      () => jsonl([...events(), events()[0]!]),
      24,
      /a second trace_start \(the first is on line 1\)/,
    ],
    [
      'a second trace_end',
      () => jsonl([...events(), events()[20]!]),
      24,
      /a second trace_end \(the first is on line 21\)/,
    ],
    [
      'an event of another trace',
      () => edit(3, (e) => ({ ...e, trace_id: 'other' })),
      3,
      /trace_id other differs from the trace_start's 6f1c2b9e/,
    ],
    ['an empty file', () => '\n\n', 1, /no trace_start event/],
  ])('%s', (_what, make, line, message) => {
    const { issues, message: text } = issuesOf(make());
    expect(issues[0]).toMatchObject({ line, message: expect.stringMatching(message) });
    expect(text).toMatch(new RegExp(`^trace line ${line}: `));
  });

  it('reports every bad line at once, in line order', () => {
    const base = events();
    const evs: (Ev | string)[] = [...base];
    evs[1] = { ...base[1]!, type: 'nope' };
    evs[5] = { ...base[5]!, tool_use_id: 'ghost' };
    evs[9] = '{"type": "tool_dispatch", ';
    const { issues, message } = issuesOf(jsonl(evs));
    // Syntax and schema first; the cross-reference pass needs a parsed file.
    expect(issues.map((i) => i.line)).toEqual([2, 10]);
    expect(message).toMatch(/^trace line 2: unknown event type "nope".*; trace line 10: not valid JSON/);
    evs[1] = base[1]!;
    evs[9] = base[9]!;
    expect(issuesOf(jsonl(evs)).issues).toEqual([
      { line: 6, message: expect.stringMatching(/unknown call: tool_use_id "ghost"/) },
    ]);
  });

  it('fields the format does not declare are dropped with a warning (pydantic ignores them), not an error', () => {
    const { warnings, trajectory } = readTrace(
      edit(6, (e) => ({ ...e, retries: 2 })).replace('"role":"user"', '"role":"user","provider_id":"x"'),
    );
    expect(warnings).toContain(
      'trace line 6: tool_dispatch has field(s) the format does not declare, ' +
        "dropped as upstream's reader drops them: retries",
    );
    expect(warnings.some((w) => /^trace line 4: message .*: message\.provider_id$/.test(w))).toBe(true);
    expect(trajectory.dispatches[0]).not.toHaveProperty('retries');
  });

  it('a plain-string message content is one text block, as upstream coerces it; CRLF line ends and a BOM pass', () => {
    const text =
      '\ufeff' +
      edit(14, (e) => ({ ...e, message: { role: 'user', content: '[user_agent]\nok' } })).replace(/\n/g, '\r\n');
    const { trajectory, warnings } = readTrace(text);
    expect(trajectory.messages.find((m) => m.role === 'user' && m.origin === 'simulated_user')?.content).toBe(
      '[user_agent]\nok',
    );
    expect(warnings[0]).toMatch(/byte-order mark/);
  });

  it('every prefix of a trace (a run cut off anywhere) is read or refused with a TraceError, nothing else', () => {
    let refused = 0;
    for (let n = 0; n < EDGE.length; n += 13) {
      try {
        readTrace(EDGE.slice(0, n));
      } catch (err) {
        if (!(err instanceof TraceError)) throw err;
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
  });
});

describe('scores that are not fractions: refused with their line and field (issue 16)', () => {
  it.each<[string, number, (e: Ev) => Ev, RegExp]>([
    ['a task_score of 7', 23, (e) => ({ ...e, task_score: 7 }), /grading_result\.task_score: 7 is outside \[0, 1\]/],
    [
      'a negative completion',
      22,
      (e) => ({ ...e, scores: { ...(e.scores as object), completion: -5 } }),
      /grading_result\.scores\.completion: -5 is outside \[0, 1\]/,
    ],
    [
      "a trace_end's task_score above 1",
      21,
      (e) => ({ ...e, task_score: 1.5 }),
      /trace_end\.task_score: 1\.5 is outside \[0, 1\]/,
    ],
  ])('%s', (_what, line, f, message) => {
    const { issues } = issuesOf(edit(line, f));
    expect(issues).toHaveLength(1);
    expect(issues[0]!.line).toBe(line);
    expect(issues[0]!.message).toMatch(message);
  });

  it('the bounds themselves are scores', () => {
    const text = edit(23, (e) => ({ ...e, task_score: 1, scores: { ...(e.scores as object), completion: 0 } }));
    expect(readTrace(text).trajectory.gradings.at(-1)!.task_score).toBe(1);
  });
});
