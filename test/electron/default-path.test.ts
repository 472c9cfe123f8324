import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  APP_DIR_NAME,
  DEFAULT_WORKSPACE_FILE,
  defaultWorkspacePath,
  userDataDir,
} from '../../src/main/core/workspace/default-path';

const HOME = '/home/ada';

describe('userDataDir (where Electron keeps userData, computed without Electron)', () => {
  it('linux: $XDG_CONFIG_HOME, else ~/.config', () => {
    expect(userDataDir('linux', { XDG_CONFIG_HOME: '/xdg' }, HOME)).toBe(path.join('/xdg', APP_DIR_NAME));
    expect(userDataDir('linux', {}, HOME)).toBe(path.join(HOME, '.config', APP_DIR_NAME));
    expect(userDataDir('linux', { XDG_CONFIG_HOME: '' }, HOME)).toBe(path.join(HOME, '.config', APP_DIR_NAME));
  });

  it('darwin: ~/Library/Application Support', () => {
    expect(userDataDir('darwin', { XDG_CONFIG_HOME: '/xdg' }, HOME)).toBe(
      path.join(HOME, 'Library', 'Application Support', APP_DIR_NAME),
    );
  });

  it('win32: %APPDATA%, else ~/AppData/Roaming', () => {
    expect(userDataDir('win32', { APPDATA: '/appdata' }, HOME)).toBe(path.join('/appdata', APP_DIR_NAME));
    expect(userDataDir('win32', {}, HOME)).toBe(path.join(HOME, 'AppData', 'Roaming', APP_DIR_NAME));
  });
});

describe('defaultWorkspacePath', () => {
  it('$COWORKENV_WORKSPACE wins on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(
        defaultWorkspacePath(
          { COWORKENV_WORKSPACE: '/data/w.coworkenv.db', XDG_CONFIG_HOME: '/xdg', APPDATA: '/appdata' },
          platform,
          HOME,
        ),
      ).toBe('/data/w.coworkenv.db');
    }
  });

  it('otherwise the per-user file in userData (an empty variable counts as unset)', () => {
    expect(defaultWorkspacePath({ COWORKENV_WORKSPACE: '', XDG_CONFIG_HOME: '/xdg' }, 'linux', HOME)).toBe(
      path.join('/xdg', APP_DIR_NAME, DEFAULT_WORKSPACE_FILE),
    );
    expect(defaultWorkspacePath({}, 'darwin', HOME)).toBe(
      path.join(HOME, 'Library', 'Application Support', APP_DIR_NAME, 'workspace.coworkenv.db'),
    );
  });
});
