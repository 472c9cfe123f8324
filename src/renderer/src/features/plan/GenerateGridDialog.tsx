import { useState } from 'react';
import { DIFFICULTIES, LANGUAGES, SCENARIOS, SERVICE_IDS, ServiceId } from '../../../../shared/contract/entities/slot';
import { call, errorText } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import { useUndoStore } from '../../grids/undo';
import { useAppStore } from '../../stores/app.store';
import { PLAN_GRID } from './plan-actions';
import { ErrorNotice } from '../../components/ErrorNotice';

const list = (s: string) =>
  s
    .split(/[,\n]/)
    .map((x) => x.trim())
    .filter(Boolean);

function Checks<T extends string>({ all, value, onChange }: { all: readonly T[]; value: T[]; onChange(v: T[]): void }) {
  return (
    <span className="checks">
      {all.map((x) => (
        <label key={x}>
          <input
            type="checkbox"
            checked={value.includes(x)}
            onChange={(e) => onChange(e.target.checked ? [...value, x] : value.filter((y) => y !== x))}
          />{' '}
          {x}
        </label>
      ))}
    </span>
  );
}

/** Starts plan.generateGrid (a worker job) and follows its progress; the grid fills live. */
export function GenerateGridDialog({ onClose }: { onClose(): void }) {
  const [sets, setSets] = useState('gmail\ncalendar, gmail');
  const [categories, setCategories] = useState('communication, productivity');
  const [dates, setDates] = useState('2026-03-02, 2026-04-06');
  const [difficulties, setDifficulties] = useState<(typeof DIFFICULTIES)[number][]>([...DIFFICULTIES]);
  const [languages, setLanguages] = useState<(typeof LANGUAGES)[number][]>([...LANGUAGES]);
  const [scenarios, setScenarios] = useState<(typeof SCENARIOS)[number][]>(['single_service']);
  const [target, setTarget] = useState(1);
  const [jobId, setJobId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const progress = useAppStore((s) => (jobId ? s.jobs[jobId] : undefined));

  const serviceSets = sets
    .split('\n')
    .map(list)
    .filter((x) => x.length);
  const size =
    serviceSets.length *
    list(categories).length *
    difficulties.length *
    languages.length *
    scenarios.length *
    list(dates).length;
  const running = progress && ['queued', 'running'].includes(progress.state);

  const start = async () => {
    setError(null);
    // Checked here so the sets can be typed; an unknown name is named, never dropped.
    const unknown = serviceSets.flat().find((s) => !ServiceId.safeParse(s).success);
    if (unknown !== undefined)
      return setError(`Service sets: "${unknown}" is not a service (one of ${SERVICE_IDS.join(', ')})`);
    try {
      const r = await call('plan.generateGrid', {
        serviceSets: serviceSets.map((set) => set.flatMap((s) => ServiceId.safeParse(s).data ?? [])),
        categories: list(categories),
        referenceDates: list(dates),
        difficulties,
        languages,
        scenarios,
        targetCount: target,
      });
      setJobId(r.jobId);
      // Ctrl+Z on the plan removes the job's slots (the core refuses while it runs or once tasks exist for them).
      useUndoStore.getState().push(PLAN_GRID, {
        label: `generate grid (${size.toLocaleString('en-US')} slots)`,
        undo: () => call('plan.undoGrid', { jobId: r.jobId }).then((u) => `removed ${u.deleted} slot(s)`),
      });
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <Dialog label="Generate grid" onClose={onClose}>
      <h2>Generate a grid of slots</h2>
      <p className="hint">Adds the cross product of these dimensions, in a background job.</p>
      <label>
        Service sets (one per line)
        <textarea rows={3} value={sets} onChange={(e) => setSets(e.target.value)} />
      </label>
      <label>
        Categories
        <input value={categories} onChange={(e) => setCategories(e.target.value)} />
      </label>
      <label>
        Reference dates
        <input value={dates} onChange={(e) => setDates(e.target.value)} />
      </label>
      <div>
        Difficulties <Checks all={DIFFICULTIES} value={difficulties} onChange={setDifficulties} />
      </div>
      <div>
        Languages <Checks all={LANGUAGES} value={languages} onChange={setLanguages} />
      </div>
      <div>
        Scenarios <Checks all={SCENARIOS} value={scenarios} onChange={setScenarios} />
      </div>
      <label>
        Target per slot
        <input type="number" min={0} value={target} onChange={(e) => setTarget(Number(e.target.value))} />
      </label>
      <p data-testid="grid-size">{size.toLocaleString()} slots</p>
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
      {progress && (
        <p data-testid="job-progress">
          <progress max={progress.total || 1} value={progress.done} />{' '}
          {progress.message === progress.state ? progress.state : `${progress.state}: ${progress.message}`}
        </p>
      )}
      <div className="dialog-actions">
        {running ? (
          <button type="button" onClick={() => jobId && call('jobs.cancel', { id: jobId })}>
            Cancel job
          </button>
        ) : (
          <button type="button" onClick={start} disabled={!size}>
            Start
          </button>
        )}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
