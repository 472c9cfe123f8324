import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { UpstreamCheck } from '../../../shared/contract/upstream.contract';
import { graderEnv } from './upstream-batch';

/**
 * Imports what the driver (driver-py.ts) imports, from <root>/src, and prints one JSON line: the version, and the
 * import's failure (the exception's last line) when it fails. A missing grader dependency (pydantic, yaml…) shows
 * here as the ModuleNotFoundError that names it.
 */
const PROBE_PY = `
from json import dumps
from sys import argv, version
from sys import path as sys_path
from traceback import format_exception_only
out = {"version": version.split()[0], "error": None}
sys_path.insert(0, argv[1])
try:
    from claw_eval.graders.registry import get_grader  # noqa: F401
    from claw_eval.models.scoring import compute_task_score, is_pass  # noqa: F401
    from claw_eval.models.task import TaskDefinition  # noqa: F401
    from claw_eval.trace.reader import load_trace  # noqa: F401
except Exception as exc:
    out["error"] = format_exception_only(type(exc), exc)[-1].strip()
print(dumps(out))
`;

const PROBE_TIMEOUT_MS = 30_000;

type Probe = { started: false; why: string } | { started: true; version: string; error: string | null };

function probe(python: string, src: string): Promise<Probe> {
  return new Promise((resolve) => {
    execFile(
      python,
      ['-c', PROBE_PY, src],
      { env: graderEnv(), cwd: os.tmpdir(), timeout: PROBE_TIMEOUT_MS, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        const line = stdout.trim().split('\n').at(-1) ?? '';
        try {
          const r = JSON.parse(line) as { version: string; error: string | null };
          return resolve({ started: true, version: r.version, error: r.error });
        } catch {
          const code = (err as NodeJS.ErrnoException | null)?.code;
          const why =
            code === 'ENOENT'
              ? `${python} was not found`
              : `${python} did not answer (${stderr.trim().split('\n').at(-1) || err?.message || 'no output'})`;
          resolve({ started: false, why });
        }
      },
    );
  });
}

/**
 * Settings → Upstream grader → Check, part by part, stopping at nothing: every part is reported, and `missing` names
 * the first one that is not there, in the words a user acts on.
 */
export async function checkUpstream(
  s: { root: string | null; python: string },
  importedTaskIds: string[],
  now: string,
): Promise<UpstreamCheck> {
  const root = s.root === null ? null : path.resolve(s.root);
  const hasDir = (p: string) => fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
  const src = root === null ? null : path.join(root, 'src');
  const p = await probe(s.python, src ?? process.cwd());
  const withGrader: string[] = [];
  const withoutGrader: string[] = [];
  for (const id of importedTaskIds)
    (root !== null && fs.existsSync(path.join(root, 'tasks', id, 'grader.py')) ? withGrader : withoutGrader).push(id);
  let missing: string | null = null;
  if (!p.started) missing = `Python: ${p.why}. Set the Python to use (a path or a command on PATH)`;
  else if (root === null) missing = 'no Claw-Eval checkout folder is set';
  else if (!hasDir(root)) missing = `the folder ${root} does not exist`;
  else if (!hasDir(path.join(root, 'src', 'claw_eval')))
    missing = `${root} has no src/claw_eval: it is not a Claw-Eval checkout`;
  else if (p.error) missing = `claw_eval does not import from ${src} with ${s.python} ${p.version}: ${p.error}`;
  else if (importedTaskIds.length > 0 && withGrader.length === 0)
    missing = `none of the ${importedTaskIds.length} imported tasks has a grader.py under ${path.join(root, 'tasks')}`;
  return {
    root: s.root,
    python: s.python,
    pythonVersion: p.started ? p.version : null,
    clawEvalImports: p.started && root !== null && hasDir(path.join(root, 'src', 'claw_eval')) && !p.error,
    importedTasks: importedTaskIds.length,
    withGrader,
    withoutGrader,
    usable: missing === null,
    missing,
    at: now,
  };
}
