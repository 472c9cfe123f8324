import { describe, expect, it } from 'vitest';
import type { Message, Trajectory } from '../../src/shared/contract/entities/trajectory';
import { callLocations } from '../../src/shared/contract/entities/call-locations';
import {
  anchorOf,
  dispatchesByCall,
  finalAudits,
  prettyArgs,
  prettyResult,
} from '../../src/renderer/src/features/trajectories/evidence';
import { parseRoute, routeHash } from '../../src/renderer/src/router';

const call = (id: string, name: string, args = '{}') => ({
  id,
  type: 'function' as const,
  function: { name, arguments: args },
  parsed_arguments: {},
  arguments_origin: 'verbatim' as const,
  requestor: 'assistant' as const,
});
const assistant = (...calls: ReturnType<typeof call>[]): Message => ({
  role: 'assistant',
  content: null,
  reasoning: null,
  tool_calls: calls,
});
const result = (id: string, name: string): Message => ({
  role: 'tool',
  tool_call_id: id,
  name,
  content: '{}',
  is_error: false,
});
const dispatch = (call_id: string, tool: string, status = 200) => ({
  call_id,
  tool,
  endpoint: '',
  args: {},
  status,
  body: {},
  latency_ms: 1,
});

describe('call locations (the grader and the viewer pair dispatches with calls the same way)', () => {
  it('pairs the n-th dispatch of a reused call id with the n-th call of that id; unnamed ones get null', () => {
    const t: Pick<Trajectory, 'messages' | 'dispatches'> = {
      messages: [
        { role: 'user', content: 'go', origin: 'task' },
        assistant(call('c1', 'a'), call('c2', 'b')),
        result('c1', 'a'),
        result('c2', 'b'),
        assistant(call('c1', 'a')), // a harness that reuses ids per turn
        result('c1', 'a'),
      ],
      dispatches: [dispatch('c1', 'a'), dispatch('c2', 'b', 404), dispatch('c1', 'a'), dispatch('zz', 'x')],
    };
    expect(callLocations(t)).toEqual([
      { call_id: 'c1', message: 1 },
      { call_id: 'c2', message: 1 },
      { call_id: 'c1', message: 4 },
      null,
    ]);
    const { byCall, loose } = dispatchesByCall(t);
    expect([...byCall.keys()]).toEqual(['call-1-c1', 'call-1-c2', 'call-4-c1']);
    expect(byCall.get('call-1-c2')).toMatchObject({ status: 404, index: 1 });
    expect(loose.map((d) => d.index)).toEqual([3]);
  });
});

describe('evidence anchors', () => {
  it('a located dispatch points at its call, an unlocated one at the bare dispatch; audits, messages, none', () => {
    expect(anchorOf({ kind: 'dispatch', index: 3, tool: 'a', status: 200, call_id: 'c1', message: 4 })).toBe(
      'call-4-c1',
    );
    expect(anchorOf({ kind: 'dispatch', index: 3, tool: 'a', status: 200 })).toBe('dispatch-3');
    expect(anchorOf({ kind: 'audit', service: 'helpdesk', action_key: 'updated_tickets', index: 1 })).toBe(
      'audit-helpdesk-updated_tickets-1',
    );
    expect(anchorOf({ kind: 'message', index: 9 })).toBe('msg-9');
    expect(anchorOf({ kind: 'none', reason: 'no call' })).toBeNull();
  });

  it('final audits: the last snapshot of each service, without the calls log', () => {
    const audits = finalAudits({
      audits: [
        { service: 'helpdesk', url: '', data: { calls: [1], updated_tickets: [] } },
        { service: 'helpdesk', url: '', data: { calls: [1, 2], updated_tickets: [{ id: 'T-1' }] } },
      ],
    });
    expect(audits).toEqual([{ service: 'helpdesk', keys: [['updated_tickets', [{ id: 'T-1' }]]] }]);
  });

  it('arguments pretty-printed when they parse, kept raw and flagged when the model wrote broken JSON', () => {
    expect(prettyArgs('{"a":1}')).toEqual({ text: '{\n  "a": 1\n}', valid: true });
    expect(prettyArgs('{"a":')).toEqual({ text: '{"a":', valid: false });
    expect(prettyResult('plain text')).toBe('plain text');
    expect(prettyResult('[1]')).toBe('[\n  1\n]');
  });
});

describe('trajectory URLs', () => {
  it('#/trajectories, #/trajectories/<id> and #/trajectories/<id>/compare/<id> round-trip', () => {
    for (const r of [
      { page: 'trajectories' as const },
      { page: 'trajectories' as const, trajectoryId: 12 },
      { page: 'trajectories' as const, trajectoryId: 12, compareId: 40 },
    ])
      expect(parseRoute(routeHash(r))).toEqual(r);
    expect(parseRoute('#/trajectories/abc')).toEqual({ page: 'trajectories' });
    expect(parseRoute('#/tasks/T1')).toEqual({ page: 'tasks', taskId: 'T1' });
  });
});
