import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, safeStorage, session, shell } from 'electron';
import { createCore, type Core } from './core';
import { stderrLogger } from './core/logger';
import { defaultWorkspacePath } from './core/workspace/default-path';
import { registerIpc } from './electron/ipc';
import { menuTemplate } from './electron/menu';
import { electronNativeBinding } from './electron/native-binding';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, rendererResponse } from './electron/app-protocol';
import { safeStorageSecrets } from './electron/safe-storage-secrets';
import { denyAllPermissions, devToolsAllowed, lockDownEveryWebContents } from './electron/security';
import { appOrigin, createMainWindow } from './electron/window';

// Before ready: the scheme must be privileged before any page can use it; the lockdown must be in
// place before the first webContents exists.
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
lockDownEveryWebContents(app, appOrigin(), { devTools: devToolsAllowed(app) });

/** Electron entry: createCore → registerIpc → window. All behaviour lives in the core. */
function start(): void {
  denyAllPermissions(session.defaultSession);
  const rendererDir = path.join(__dirname, '../renderer');
  protocol.handle(APP_SCHEME, (request) => rendererResponse(rendererDir, request));
  const nativeBinding = electronNativeBinding(app.getAppPath());
  let core: Core;
  try {
    core = createCore({
      workspacePath: defaultWorkspacePath(),
      seedDemo: true,
      logger: stderrLogger,
      workerEntry: path.join(__dirname, 'job-worker.js'),
      // Endpoint keys: encrypted by the OS keychain, kept in userData — never in the workspace.
      secrets: safeStorageSecrets(safeStorage, path.join(app.getPath('userData'), 'endpoint-keys.json')),
      ...(nativeBinding ? { nativeBinding } : {}),
    });
  } catch (err) {
    dialog.showErrorBox('CoworkEnv Studio cannot open its workspace', (err as Error).message);
    app.exit(1);
    return;
  }
  registerIpc(ipcMain, core, appOrigin(), () => BrowserWindow.getAllWindows());
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate(
        process.platform,
        { openWorkspaceFolder: () => shell.showItemInFolder(core.workspacePath) },
        { devTools: devToolsAllowed(app) },
      ),
    ),
  );
  createMainWindow();
  app.on('activate', () => BrowserWindow.getAllWindows().length === 0 && createMainWindow());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') void core.close().then(() => app.quit());
  });
}

void app.whenReady().then(start);
