import { app, BrowserWindow, ipcMain, Menu, shell } from 'electron';
import { createCore } from './core';
import { stderrLogger } from './core/logger';
import { defaultWorkspacePath } from './core/workspace/default-path';
import { registerIpc } from './electron/ipc';
import { menuTemplate } from './electron/menu';
import { electronNativeBinding } from './electron/native-binding';
import { appOrigin, createMainWindow } from './electron/window';

/** Electron entry: createCore → registerIpc → window. All behaviour lives in the core. */
app.whenReady().then(() => {
  const nativeBinding = electronNativeBinding(app.getAppPath());
  const core = createCore({
    workspacePath: defaultWorkspacePath(),
    seedDemo: true,
    logger: stderrLogger,
    ...(nativeBinding ? { nativeBinding } : {}),
  });
  registerIpc(ipcMain, core, appOrigin(), () => BrowserWindow.getAllWindows());
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(process.platform, { openWorkspaceFolder: () => shell.showItemInFolder(core.workspacePath) })));
  createMainWindow();
  app.on('activate', () => BrowserWindow.getAllWindows().length === 0 && createMainWindow());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') void core.close().then(() => app.quit());
  });
}, (err) => {
  process.stderr.write(`CoworkEnv Studio failed to start: ${(err as Error).message}\n`);
  app.exit(1);
});
