import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { Core } from '../core';
import { isAppUrl } from './security';

export const RPC_CHANNEL = 'rpc';
export const EVENT_CHANNEL = 'rpc:event';

type Sender = Pick<IpcMainInvokeEvent, 'senderFrame'>;
type WindowsSource = () => { webContents: Pick<WebContents, 'send' | 'isDestroyed'> }[];

/** Only the app's own top frame may call the core; an iframe or a navigated-away page may not. */
export function isTrustedSender(e: Sender, appOrigin: string): boolean {
  const frame = e.senderFrame;
  return !!frame && frame.parent === null && isAppUrl(frame.url, appOrigin);
}

/**
 * One generic channel: adding a procedure never changes IPC or the preload. Input is validated
 * by the core's dispatch against the contract, like every other transport.
 */
export function registerIpc(
  ipc: Pick<IpcMain, 'handle' | 'removeHandler'>,
  core: Pick<Core, 'dispatch' | 'events'>,
  appOrigin: string,
  windows: WindowsSource,
): () => void {
  ipc.handle(RPC_CHANNEL, async (e, name: unknown, input: unknown) => {
    if (!isTrustedSender(e, appOrigin))
      return { ok: false, error: { code: 'UNAUTHORIZED', message: 'IPC from an untrusted frame' } };
    if (typeof name !== 'string')
      return { ok: false, error: { code: 'BAD_REQUEST', message: 'procedure name must be a string' } };
    return core.dispatch(name, input);
  });
  const off = core.events.on((event) => {
    for (const w of windows()) if (!w.webContents.isDestroyed()) w.webContents.send(EVENT_CHANNEL, event);
  });
  return () => {
    off();
    ipc.removeHandler(RPC_CHANNEL);
  };
}
