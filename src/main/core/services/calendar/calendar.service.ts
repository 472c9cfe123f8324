import { z } from 'zod';
import { defineService } from '../define';
import { dateText, email, oneOf } from '../record-fields';
import { deepCopy, notFound, objects } from '../lib';
import type { PyObject } from '../../py/pyjson';
import { opt, req } from '../request-model';
import { field } from '../../py/pytime/pydatetime';
import { shiftEventTimes, eventsOn } from './events';

/** reference/claw-eval.md §6.5. organizer, status, description and recurring are optional. */
const EventRecord = z.looseObject({
  event_id: z.string(),
  title: z.string(),
  start_time: dateText(),
  end_time: dateText(),
  attendees: z.array(z.string()),
  location: z.string(),
  organizer: email().optional(),
  status: oneOf(['confirmed', 'tentative', 'cancelled']).optional(),
  recurring: z.boolean().optional(),
});

type State = { events: PyObject[] };

const indexOf = (events: PyObject[], id: unknown) => events.findIndex((e) => field(e, 'event_id') === id);

export const calendarService = defineService<State>({
  id: 'calendar',
  port: 9101,
  fixtureEnv: 'CALENDAR_FIXTURES',
  defaultFixture: 'tasks/T003zh_calendar_scheduling/fixtures/calendar/events.json',
  probe: { method: 'POST', path: '/calendar/events' },
  actionKeys: ['deleted', 'created_events'],
  recordSchema: EventRecord,
  recordKey: 'event_id',
  upstreamReads: ['event_id', 'start_time'],
  parsedAtLoad: ['start_time', 'end_time'],
  load: (records, now) => {
    const events = objects(records);
    shiftEventTimes(events, now);
    return { events };
  },
  routes: {
    '/calendar/events': {
      model: { date: req('str'), days: opt('int', 1) },
      // Upstream's no-body default: the fixture's original day, empty once dates are shifted.
      noBody: { date: '2026-03-02', days: 1 },
      handle: (r, { state }) => eventsOn(state.events, r.date as string, r.days as number),
    },
    '/calendar/events/get': {
      model: { event_id: req('str') },
      handle: (r, { state }) => {
        const e = state.events[indexOf(state.events, r.event_id)];
        return e ? deepCopy(e) : notFound('Event', r.event_id!);
      },
    },
    '/calendar/events/create': {
      model: {
        title: req('str'),
        start_time: req('str'),
        end_time: req('str'),
        attendees: opt('list[str]', []),
        location: opt('str', ''),
      },
      handle: (r, ctx) => {
        // Stored verbatim (no shift, no validation): an offset-less start_time breaks later lists (Q16).
        // The id comes from the list length, so it can repeat an existing id after a delete.
        const event: PyObject = {
          event_id: `evt_${String(ctx.state.events.length + 1).padStart(3, '0')}`,
          title: r.title!,
          start_time: r.start_time!,
          end_time: r.end_time!,
          attendees: deepCopy(r.attendees!),
          location: r.location!,
          recurring: false,
        };
        ctx.state.events.push(event);
        ctx.record('created_events', deepCopy(event));
        return { status: 'created', event };
      },
    },
    '/calendar/user_events': {
      model: { user: req('str'), date: req('str') },
      handle: (r, { state }) => {
        const res = eventsOn(state.events, r.date as string, 1, r.user as string);
        return 'error' in res ? res : { ...res, user: r.user! };
      },
    },
    '/calendar/events/delete': {
      model: { event_id: req('str') },
      handle: (r, ctx) => {
        const i = indexOf(ctx.state.events, r.event_id);
        if (i < 0) return notFound('Event', r.event_id!);
        // The removed object itself goes to `deleted` and into the response.
        const [event] = ctx.state.events.splice(i, 1) as [PyObject];
        ctx.record('deleted', event);
        return { status: 'deleted', event };
      },
    },
  },
});
