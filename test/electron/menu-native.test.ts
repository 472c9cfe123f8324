import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { menuTemplate } from '../../src/main/electron/menu';
import { electronNativeBinding } from '../../src/main/electron/native-binding';

type Item = { role?: string; label?: string; type?: string; click?: () => void; submenu?: Item[] };

describe('menuTemplate', () => {
  const roles = (items: Item[]) => items.map((i) => i.role ?? i.label ?? i.type);

  it('macOS: app menu first, File closes the window', () => {
    const t = menuTemplate('darwin', { openWorkspaceFolder() {} }) as Item[];
    expect(roles(t)).toEqual(['appMenu', 'File', 'editMenu', 'View', 'windowMenu']);
    expect(roles(t[1]!.submenu!)).toEqual(['Show workspace file', 'separator', 'close']);
  });

  for (const platform of ['linux', 'win32'] as const) {
    it(`${platform}: no app menu, File quits`, () => {
      const t = menuTemplate(platform, { openWorkspaceFolder() {} }) as Item[];
      expect(roles(t)).toEqual(['File', 'editMenu', 'View', 'windowMenu']);
      expect(roles(t[0]!.submenu!)).toEqual(['Show workspace file', 'separator', 'quit']);
    });
  }

  it('"Show workspace file" calls the action', () => {
    const openWorkspaceFolder = vi.fn();
    const file = (menuTemplate('linux', { openWorkspaceFolder }) as Item[])[0]!.submenu![0]!;
    file.click!();
    expect(openWorkspaceFolder).toHaveBeenCalledTimes(1);
  });
});

describe('electronNativeBinding', () => {
  const expected = path.join('/app', 'build', 'electron-native', 'better_sqlite3.node');
  it('answers the Electron-ABI build when it was made', () => {
    const exists = vi.fn((p: string) => p === expected);
    expect(electronNativeBinding('/app', exists)).toBe(expected);
    expect(exists).toHaveBeenCalledWith(expected);
  });
  it('answers undefined otherwise (the Node build is used)', () => {
    expect(electronNativeBinding('/app', () => false)).toBeUndefined();
  });
});
