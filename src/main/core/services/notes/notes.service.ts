import { z } from 'zod';
import { defineService } from '../define';
import { count, dateText } from '../record-fields';
import { deepCopy, findBy, notFound, objects, project, pySlice } from '../lib';
import type { PyObject } from '../../py/pyjson';
import { opt, req } from '../request-model';

/** reference/claw-eval.md §6.9. The mock ignores the tag/date/days_back parameters task schemas expose. */
const NoteRecord = z.looseObject({
  note_id: z.string(),
  title: z.string(),
  created_at: dateText(),
  participants: z.array(z.string()),
  content: z.string(),
  duration_minutes: count(),
});

type State = { notes: PyObject[] };
const SUMMARY = ['note_id', 'title', 'created_at', 'participants', 'duration_minutes'] as const;

export const notesService = defineService<State>({
  id: 'notes',
  port: 9105,
  fixtureEnv: 'NOTES_FIXTURES',
  defaultFixture: 'tasks/T013zh_meeting_notes/fixtures/notes/meetings.json',
  probe: { method: 'POST', path: '/notes/list' },
  actionKeys: ['shared'],
  recordSchema: NoteRecord,
  recordKey: 'note_id',
  upstreamReads: ['note_id', 'title', 'created_at', 'participants', 'duration_minutes'],
  load: (records) => ({ notes: objects(records) }),
  routes: {
    '/notes/list': {
      model: { max_results: opt('int', 10) },
      noBody: 'defaults',
      handle: (r, { state }) => {
        const notes = pySlice(state.notes, r.max_results as number).map((n) => project(n, SUMMARY));
        return { notes, total: notes.length };
      },
    },
    '/notes/get': {
      model: { note_id: req('str') },
      handle: (r, { state }) => {
        const n = findBy(state.notes, 'note_id', r.note_id!);
        return n ? deepCopy(n) : notFound('Note', r.note_id!);
      },
    },
    '/notes/share': {
      model: { note_id: req('str'), recipients: req('list[str]') },
      handle: (r, ctx) => {
        const record = { note_id: r.note_id!, recipients: r.recipients!, timestamp: ctx.timestamp() };
        ctx.record('shared', record);
        return { status: 'shared', record };
      },
    },
  },
});
