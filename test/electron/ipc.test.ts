import { describe, expect, it, vi } from 'vitest';
import { CoreEvents } from '../../src/main/core/events/core-events';
import { EVENT_CHANNEL, registerIpc, RPC_CHANNEL } from '../../src/main/electron/ipc';

const APP = 'coworkenv://app';
const APP_PAGE = 'coworkenv://app/index.html#/plan';

type Handler = (e: unknown, ...args: unknown[]) => Promise<unknown>;

/** ipcMain's handle/removeHandler, recorded. */
function fakeIpc() {
  const handlers = new Map<string, Handler>();
  return {
    handlers,
    handle: vi.fn((channel: string, fn: Handler) => void handlers.set(channel, fn)),
    removeHandler: vi.fn((channel: string) => void handlers.delete(channel)),
  };
}

function setup() {
  const ipc = fakeIpc();
  const events = new CoreEvents();
  const dispatch = vi.fn(async (name: string, input: unknown) => ({ ok: true as const, data: { name, input } }));
  const win = (destroyed: boolean) => ({ webContents: { send: vi.fn(), isDestroyed: () => destroyed } });
  const windows = [win(false), win(true), win(false)];
  const off = registerIpc(ipc as never, { dispatch, events } as never, APP, () => windows);
  const invoke = (frame: unknown, ...args: unknown[]) =>
    ipc.handlers.get(RPC_CHANNEL)!({ senderFrame: frame }, ...args);
  return { ipc, events, dispatch, windows, off, invoke };
}

describe('registerIpc', () => {
  it('registers one generic channel', () => {
    const { ipc } = setup();
    expect(RPC_CHANNEL).toBe('rpc');
    expect(EVENT_CHANNEL).toBe('rpc:event');
    expect([...ipc.handlers.keys()]).toEqual(['rpc']);
  });

  it("the app's own top frame reaches dispatch with the name and input", async () => {
    const { invoke, dispatch } = setup();
    expect(await invoke({ parent: null, url: APP_PAGE }, 'plan.list', { limit: 5 })).toEqual({
      ok: true,
      data: { name: 'plan.list', input: { limit: 5 } },
    });
    expect(dispatch).toHaveBeenCalledWith('plan.list', { limit: 5 });
  });

  it('an iframe, a foreign page, a local file, another host or a gone frame: UNAUTHORIZED, no dispatch', async () => {
    const { invoke, dispatch } = setup();
    const frames = [
      { parent: { url: APP_PAGE }, url: APP_PAGE },
      { parent: null, url: 'https://evil.example/' },
      { parent: null, url: 'file:///etc/passwd' },
      { parent: null, url: 'file:///opt/CoworkEnv%20Studio/resources/app/out/renderer/index.html' },
      { parent: null, url: 'coworkenv://evil/index.html' },
      null,
    ];
    for (const f of frames)
      expect(await invoke(f, 'plan.list', {}), JSON.stringify(f)).toMatchObject({
        ok: false,
        error: { code: 'UNAUTHORIZED' },
      });
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('a non-string procedure name is BAD_REQUEST', async () => {
    const { invoke, dispatch } = setup();
    for (const name of [42, null, { toString: () => 'plan.list' }, ['plan.list']]) {
      expect(await invoke({ parent: null, url: APP_PAGE }, name, {})).toMatchObject({
        ok: false,
        error: { code: 'BAD_REQUEST' },
      });
    }
    expect(dispatch).not.toHaveBeenCalled();
  });

  it("forwards core events to every live window on 'rpc:event', skipping destroyed ones", () => {
    const { events, windows } = setup();
    events.emit('table.changed', { table: 'coverage_slots', ids: [3] });
    const sent = { event: 'table.changed', payload: { table: 'coverage_slots', ids: [3] } };
    expect(windows[0]!.webContents.send).toHaveBeenCalledWith('rpc:event', sent);
    expect(windows[1]!.webContents.send).not.toHaveBeenCalled();
    expect(windows[2]!.webContents.send).toHaveBeenCalledWith('rpc:event', sent);
  });

  it('the returned function removes the handler and stops forwarding', () => {
    const { events, windows, off, ipc } = setup();
    expect(events.size).toBe(1);
    off();
    expect(ipc.removeHandler).toHaveBeenCalledWith('rpc');
    expect(ipc.handlers.size).toBe(0);
    expect(events.size).toBe(0);
    events.emit('table.changed', { table: 'jobs' });
    for (const w of windows) expect(w.webContents.send).not.toHaveBeenCalled();
  });
});
