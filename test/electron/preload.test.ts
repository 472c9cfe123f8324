import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNEL, RPC_CHANNEL } from '../../src/main/electron/ipc';
import type { PreloadApi } from '../../src/shared/preload-api';

const electron = vi.hoisted(() => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(async () => ({ ok: true, data: 'answer' })), on: vi.fn(), removeListener: vi.fn() },
}));
vi.mock('electron', () => ({ ...electron, default: electron }));

let api: PreloadApi;
beforeAll(async () => {
  // Loaded by path: the preload belongs to its own TypeScript project.
  const preload = path.resolve(__dirname, '../../src/preload/index.ts');
  await import(/* @vite-ignore */ preload);
  expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
  const [key, value] = electron.contextBridge.exposeInMainWorld.mock.calls[0] as unknown as [string, PreloadApi];
  expect(key).toBe('api');
  api = value;
});

describe('preload', () => {
  it('exposes window.api with call and on, nothing else', () => {
    expect(Object.keys(api).sort()).toEqual(['call', 'on']);
  });

  it('call invokes the generic rpc channel and answers its envelope', async () => {
    expect(await api.call('plan.list', { limit: 3 })).toEqual({ ok: true, data: 'answer' });
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith(RPC_CHANNEL, 'plan.list', { limit: 3 });
  });

  it('on subscribes to rpc:event, passes only the event (not the IPC sender), and unsubscribes', () => {
    const listener = vi.fn();
    const off = api.on(listener);
    expect(electron.ipcRenderer.on).toHaveBeenCalledWith(EVENT_CHANNEL, expect.any(Function));
    const handler = electron.ipcRenderer.on.mock.calls.at(-1)![1] as (e: unknown, ev: unknown) => void;
    const event = { event: 'table.changed', payload: { table: 'coverage_slots' } };
    handler({ sender: 'ipc internals' }, event);
    expect(listener).toHaveBeenCalledWith(event);
    expect(listener.mock.calls[0]).toHaveLength(1);
    off();
    expect(electron.ipcRenderer.removeListener).toHaveBeenCalledWith(EVENT_CHANNEL, handler);
  });
});
