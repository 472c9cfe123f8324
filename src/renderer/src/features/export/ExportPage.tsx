import { useState } from 'react';
import { useAppStore } from '../../stores/app.store';
import { ClawEvalPanel, RlPanel } from './RlPanel';
import { SftPanel } from './SftPanel';

type Kind = 'sft' | 'rl' | 'claw-eval';
const KINDS: { id: Kind; label: string }[] = [
  { id: 'sft', label: 'SFT dataset' },
  { id: 'rl', label: 'RL package' },
  { id: 'claw-eval', label: 'Claw-Eval tasks' },
];

/** Where exports go by default: an exports folder beside the workspace file. */
const exportsDirOf = (workspace: string | null) => {
  const at = workspace ? Math.max(workspace.lastIndexOf('/'), workspace.lastIndexOf('\\')) : -1;
  return at > 0 ? `${workspace!.slice(0, at)}/exports` : 'exports';
};

/** The Export page (#/export): SFT datasets, RL packages and Claw-Eval folders from the workspace. */
export default function ExportPage() {
  const [kind, setKind] = useState<Kind>('sft');
  const workspace = useAppStore((s) => s.workspace);
  const dir = exportsDirOf(workspace);
  return (
    <section className="page">
      <div className="page-head">
        <h1>Export</h1>
        <div className="toolbar" role="tablist">
          {KINDS.map((k) => (
            <button
              type="button"
              role="tab"
              key={k.id}
              aria-selected={k.id === kind}
              className={k.id === kind ? 'active' : ''}
              onClick={() => setKind(k.id)}
            >
              {k.label}
            </button>
          ))}
        </div>
      </div>
      {kind === 'sft' && <SftPanel exportsDir={dir} />}
      {kind === 'rl' && <RlPanel exportsDir={dir} />}
      {kind === 'claw-eval' && <ClawEvalPanel exportsDir={dir} />}
    </section>
  );
}
