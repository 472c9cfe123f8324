import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core';
import type { Output } from '../../src/shared/contract';
import { parseCsv } from '../../src/main/core/lib/csv';
import { allSlots, fail, ok, slotInput } from '../helpers/call';
import { createTestCore } from '../helpers/test-core';

const cores: Core[] = [];
const open = () => {
  const { core } = createTestCore();
  cores.push(core);
  return core;
};
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
});

async function exportAll(core: Core, limit = 10_000): Promise<string> {
  let csv = '';
  for (let afterId: number | null = 0; afterId !== null; ) {
    const page: Output<'plan.exportCsv'> = await ok(core, 'plan.exportCsv', { afterId, limit });
    csv += page.csv;
    afterId = page.nextAfterId;
  }
  return csv;
}
const fields = (s: { created_at: string; updated_at: string }) => {
  const { created_at: _c, updated_at: _u, ...rest } = s;
  return rest;
};
const HEADER = 'id,family,services,category,difficulty,language,reference_date,scenario,target_count,notes';

describe('plan CSV', () => {
  it('round trip: demo plan + awkward notes exported, imported elsewhere, exported again', async () => {
    const a = open();
    await ok(a, 'plan.loadDemo', {});
    // Cells a naive CSV writer would break: commas, quotes, line breaks, Chinese, leading spaces.
    await ok(a, 'plan.create', {
      rows: [
        slotInput({ notes: 'has, a comma and "quotes"\nand a second line', services: ['gmail', 'crm', 'kb'] }),
        slotInput({ notes: '  padded  ', category: '客户支持', language: 'zh' }),
      ],
    });
    const csv = await exportAll(a, 7); // pages smaller than the plan
    expect(csv.startsWith(`${HEADER}\r\n`)).toBe(true);
    expect(csv).toContain('"gmail, kb, crm"');

    const b = open();
    expect(await ok(b, 'plan.importCsv', { csv, file: 'demo.csv' })).toEqual({ created: 28, updated: 0 });
    expect((await allSlots(b)).map(fields)).toEqual((await allSlots(a)).map(fields));
    expect(await exportAll(b)).toBe(csv);

    // Importing it again updates every slot in place: nothing is added.
    const edited = csv.replace('Sort an inbox by urgency', 'Sort the inbox by urgency');
    expect(await ok(b, 'plan.importCsv', { csv: edited, file: 'demo.csv' })).toEqual({ created: 0, updated: 28 });
    expect((await ok(b, 'plan.get', { id: 1 })).notes).toMatch(/^Sort the inbox/);
  });

  it('columns in any order and case, id and notes left out: rows are added', async () => {
    const core = open();
    const csv =
      'Scenario,Services,Family,Category,Difficulty,Language,Reference_Date,Target_Count\n' +
      'cross_service,"helpdesk crm kb",ops,support,hard,en,2026-04-01,5\n' +
      'single_service,todo,tasks,productivity,EASY,zh,2026-04-02,2\n\n';
    expect(await ok(core, 'plan.importCsv', { csv })).toEqual({ created: 2, updated: 0 });
    expect((await allSlots(core)).map((s) => [s.services, s.difficulty, s.target_count, s.notes])).toEqual([
      [['kb', 'helpdesk', 'crm'], 'hard', 5, ''],
      [['todo'], 'easy', 2, ''],
    ]);
  });

  it('bad rows: every problem named file, line and field; nothing is written', async () => {
    const core = open();
    await ok(core, 'plan.create', { rows: [slotInput()] });
    const csv = [
      HEADER,
      '1,fam,gmail,communication,easy,en,2026-03-02,single_service,3,fine update',
      ',fam,"gmail, slack",communication,easy,en,2026-03-02,single_service,1,',
      ',fam,gmail,communication,extreme,en,2026-02-30,single_service,-1,',
      '"multi',
      'line",fam,gmail,communication,easy,en,2026-03-02,single_service,1,',
      ',fam,gmail,communication,easy,en',
      '1,fam,gmail,communication,easy,en,2026-03-02,single_service,1,',
    ].join('\n');
    const err = await fail(core, 'plan.importCsv', { csv, file: 'plan.csv' });
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toMatch(/^7 problems in plan\.csv; nothing was imported \(first: plan\.csv:3: services: /);
    expect(err.issues!.map((i) => i.message)).toEqual([
      expect.stringMatching(/^plan\.csv:3: services: unknown service "slack"/),
      'plan.csv:4: difficulty: one of easy, medium, hard',
      'plan.csv:4: reference_date: not a calendar date',
      'plan.csv:4: target_count: must be ≥ 0',
      'plan.csv:5: id: "multi\nline" is not a slot id (a whole number ≥ 1)',
      'plan.csv:7: 6 fields; the header has 10',
      'plan.csv:8: id: slot 1 is given twice (first on line 2)',
    ]);
    expect(err.issues![0]!.path).toEqual(['plan.csv', 3, 'services']);
    expect((await allSlots(core)).map((s) => [s.target_count, s.notes])).toEqual([[1, '']]);

    const header = await fail(core, 'plan.importCsv', { csv: 'family,servics,category\n', file: 'x.csv' });
    expect(header.issues!.map((i) => i.message)).toEqual([
      expect.stringMatching(/^x\.csv:1: servics: unknown column; the plan's columns are id, family, services/),
      'x.csv:1: services: missing column',
      'x.csv:1: difficulty: missing column',
      'x.csv:1: language: missing column',
      'x.csv:1: reference_date: missing column',
      'x.csv:1: scenario: missing column',
    ]);
    const quote = await fail(core, 'plan.importCsv', { csv: `${HEADER}\n,"unclosed,gmail\n`, file: 'q.csv' });
    expect(quote.message).toContain('q.csv:2: a quoted field is never closed');
    expect((await fail(core, 'plan.importCsv', { csv: '', file: 'e.csv' })).message).toContain(
      'e.csv:1: the file is empty',
    );
  });

  it('the parser: quotes, doubled quotes, CRLF, a byte-order mark, records spanning lines', () => {
    expect(parseCsv('\ufeffa,b\r\n"x, ""y""","1\n2"\r\nlast,\n')).toEqual({
      records: [
        { line: 1, fields: ['a', 'b'] },
        { line: 2, fields: ['x, "y"', '1\n2'] },
        { line: 4, fields: ['last', ''] },
      ],
    });
    expect(parseCsv('"a"b,c')).toEqual({
      problem: { line: 1, message: 'text after a closing quote (quotes inside a field are doubled: "")' },
    });
  });
});
