import os from 'node:os';
import path from 'node:path';

/** Electron's userData folder is named after productName; the CLI uses the same folder. */
export const APP_DIR_NAME = 'CoworkEnv Studio';
export const DEFAULT_WORKSPACE_FILE = 'workspace.coworkenv.db';

/** Where Electron's app.getPath('userData') points on each platform, computed without Electron. */
export function userDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home = os.homedir(),
): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_DIR_NAME);
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), APP_DIR_NAME);
}

/** The workspace every entry point opens when none is named: COWORKENV_WORKSPACE, else the per-user file. */
export function defaultWorkspacePath(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = os.homedir(),
): string {
  return env.COWORKENV_WORKSPACE || path.join(userDataDir(platform, env, home), DEFAULT_WORKSPACE_FILE);
}
