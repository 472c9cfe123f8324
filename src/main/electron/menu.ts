import type { MenuItemConstructorOptions } from 'electron';

/** The application menu as data, so it is testable without Electron. */
export function menuTemplate(
  platform: NodeJS.Platform,
  actions: { openWorkspaceFolder(): void },
  o: { devTools: boolean } = { devTools: false },
): MenuItemConstructorOptions[] {
  return [
    ...(platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Show workspace file', click: () => actions.openWorkspaceFolder() },
        { type: 'separator' },
        platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        // DevTools only in development (security.ts devToolsAllowed); the role would open them regardless.
        ...(o.devTools ? [{ role: 'toggleDevTools' as const }] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
      ],
    },
    { role: 'windowMenu' },
  ];
}
