import { useEffect, useState } from 'react';
import type { ImportResult } from '../../../../shared/contract/entities/trajectory-row';
import { call, errorText } from '../../api/client';
import type { Notice } from '../../grids/StatusBar';
import { useJob } from '../../api/use-job';

/** What an import left, in one line (the CLI prints the same counts). */
function summary(r: ImportResult): string {
  const t = r.toolSchemas;
  return (
    `${r.stored} stored, ${r.duplicates} duplicates, ${r.refused} refused, ${r.issueCount} issues` +
    (t ? ` · tool schemas: ${t.tools} from ${t.file} (sha256 ${t.sha256.slice(0, 12)}…)` : '')
  );
}

/**
 * Imports trajectory files or folders as a job (trajectories.import), with an optional tools file:
 * τ-bench and τ²-bench results carry no tool schemas, and without them their tool-calling runs
 * cannot be exported for SFT. Paths are typed (the core reads them; browser mode has no file picker
 * that yields a path), several separated by new lines.
 */
export function TrajectoryImport({ onNotice }: { onNotice(n: Notice | null): void }) {
  const [paths, setPaths] = useState('');
  const [tools, setTools] = useState('');
  const [jobId, setJobId] = useState<string | null>(null);
  const { progress: live, outcome, error } = useJob(jobId, 'trajectories.import');
  const list = paths
    .split('\n')
    .map((p) => p.trim())
    .filter(Boolean);
  useEffect(() => {
    if (!outcome && !error) return;
    setJobId(null);
    if (error) onNotice({ kind: 'error', text: error });
    else if (outcome?.ok) onNotice({ kind: 'info', text: `Import done: ${summary(outcome.result)}` });
    else if (outcome) onNotice({ kind: 'error', text: `Import ${outcome.reason}` });
  }, [outcome, error, onNotice]);
  const start = () => {
    onNotice({ kind: 'info', text: `Importing ${list.join(', ')}…` });
    call('trajectories.import', { paths: list, ...(tools.trim() ? { tools: tools.trim() } : {}) }).then(
      (r) => setJobId(r.jobId),
      // A bad tools file (or one tool defined two ways) is refused here, before anything is read.
      (e) => onNotice({ kind: 'error', text: errorText(e) }),
    );
  };
  return (
    <form className="toolbar" data-testid="trajectory-import" onSubmit={(e) => (e.preventDefault(), start())}>
      <textarea
        className="path-input"
        rows={1}
        placeholder="Trajectory files or folders to import (one per line)"
        aria-label="Trajectory files to import"
        value={paths}
        onChange={(e) => setPaths(e.target.value)}
      />
      <input
        className="path-input"
        placeholder="Tool schemas file (optional): OpenAI tools list, or JSON/JSONL records with tools"
        aria-label="Tool schemas file"
        title="Applied to the records that carry no tool schemas of their own (τ-bench, τ²-bench results)"
        value={tools}
        onChange={(e) => setTools(e.target.value)}
      />
      <button type="submit" disabled={!list.length || jobId !== null}>
        Import
      </button>
      {live && jobId && (
        <span className="hint" data-testid="import-progress">
          <progress max={live.total || 1} value={live.done} /> {live.message}
        </span>
      )}
    </form>
  );
}
