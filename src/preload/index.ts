import { contextBridge, ipcRenderer } from 'electron';
import type { PreloadApi } from '../shared/preload-api';

// Generic on purpose: adding a procedure never changes this file (channel names match src/main/electron/ipc.ts).
const api: PreloadApi = {
  call: (name, input) => ipcRenderer.invoke('rpc', name, input),
  on(listener) {
    const handler = (_e: unknown, event: Parameters<typeof listener>[0]) => listener(event);
    ipcRenderer.on('rpc:event', handler);
    return () => void ipcRenderer.removeListener('rpc:event', handler);
  },
};

contextBridge.exposeInMainWorld('api', api);
