import { describe, expect, it } from 'vitest';
import { gmailService } from '../../src/main/core/services/gmail/gmail.service';
import type { PyObject } from '../../src/main/core/py/pyjson';
import { ServiceInstance } from '../../src/main/core/services/service-instance';

// The handlers' context is kept between requests (made once per load): a reset must hand the handlers the
// new state and audit lists, never the ones of the load before.
describe("a service's handler context across resets", () => {
  it('writes after a reset land in the new state and audit only', () => {
    let now = new Date('2026-03-05T09:00:00Z');
    const s = new ServiceInstance(gmailService, [], () => now);
    const draft = (subject: string) =>
      s.request('POST', '/gmail/drafts/save', { to: 'a@x.com', subject, body: 'b' }).json as PyObject;
    draft('before');
    expect((s.audit().drafts as PyObject[]).map((d) => d.subject)).toEqual(['before']);
    s.request('POST', '/gmail/reset', undefined);
    now = new Date('2026-03-06T10:30:00.250Z');
    draft('after');
    const audit = s.audit();
    expect((audit.drafts as PyObject[]).map((d) => d.subject)).toEqual(['after']);
    expect((audit.calls as PyObject[]).map((c) => c.timestamp)).toEqual(['2026-03-06T10:30:00.250000+00:00']);
    s.reset();
    expect(s.audit()).toEqual({ calls: [], sent_messages: [], drafts: [] });
  });
});
