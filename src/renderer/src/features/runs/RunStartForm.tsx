import { useEffect, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { call, errorText } from '../../api/client';
import { anyField, toGridFilter, type AgFilterModel } from '../../grids/grid-query';
import { loadGridState } from '../../grids/grid-state';
import { DEFAULT_FORM, type FormField, type RunForm, runInput, type TextField } from './run-form';
import { ErrorNotice } from '../../components/ErrorNotice';

type Endpoint = Output<'endpoints.list'>['endpoints'][number];

/**
 * "New run": tasks (all, ids, or a tasks-grid filter — the Tasks page's current one a click away),
 * the agent (reference, with its seed and perturbations, or an endpoint), the simulated user,
 * trials, concurrency, attempts per model call, collection and name. Checked with runs.start's
 * schema field by field (run-form.ts); the core's own refusals (unknown tasks, tasks without a
 * reference plan) show below the form.
 */
export function RunStartForm({ workspace, onStarted }: { workspace: string; onStarted(jobId: string): void }) {
  const [f, setF] = useState<RunForm>(DEFAULT_FORM);
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
  const [errors, setErrors] = useState<Partial<Record<FormField, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    void call('endpoints.list').then(
      (r) => setEndpoints(r.endpoints),
      () => {},
    );
  }, []);
  const set = <K extends FormField>(k: K, v: RunForm[K]) => {
    setF((x) => ({ ...x, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
    setError(null);
  };
  const checked = runInput(f);
  // How many tasks the selection holds, from the same filter the core will apply.
  const where = checked.ok ? JSON.stringify(checked.input.where ?? null) : null;
  const tasks = checked.ok ? (checked.input.tasks ?? 'all') : null;
  useEffect(() => {
    if (tasks === null) return setCount(null);
    if (tasks !== 'all') return setCount(tasks.length);
    const w = where ? JSON.parse(where) : null;
    void call('tasks.ids', { ...(w ?? { filters: [] }), limit: 1 }).then(
      (r) => setCount(r.total),
      () => setCount(null),
    );
  }, [where, tasks]);
  const takeTasksFilter = () => {
    const saved = loadGridState(workspace, 'tasks');
    const model = (saved.grid?.filter?.filterModel ?? null) as AgFilterModel;
    const g = toGridFilter(model, saved.quick, anyField);
    setF((x) => ({
      ...x,
      taskMode: 'filter',
      quick: g.quick ?? '',
      where: g.filters.length ? JSON.stringify(g.filters) : '',
    }));
  };
  const start = () => {
    const r = runInput(f);
    if (!r.ok) return setErrors(r.errors);
    call('runs.start', r.input).then(
      (s) => onStarted(s.jobId),
      (e) => setError(errorText(e)),
    );
  };
  const isRef = !f.agent.startsWith('endpoint:');
  const field = (k: TextField, label: string, extra: { placeholder?: string; title?: string } = {}) => (
    <label className={errors[k] ? 'field field-error' : 'field'}>
      {label}{' '}
      <input
        aria-label={label}
        value={String(f[k])}
        onChange={(e) => set(k, e.target.value)}
        aria-invalid={!!errors[k]}
        {...extra}
      />
      {errors[k] && (
        <span className="field-message" role="alert" data-testid={`error-${k}`}>
          {errors[k]}
        </span>
      )}
    </label>
  );
  const endpointOptions = endpoints.map((e) => (
    <option key={e.name} value={`endpoint:${e.name}`}>
      {e.name} ({e.model})
    </option>
  ));
  return (
    <form
      className="run-form"
      data-testid="run-form"
      aria-label="New run"
      onSubmit={(e) => (e.preventDefault(), start())}
    >
      <fieldset>
        <legend>Tasks</legend>
        <label>
          <input type="radio" checked={f.taskMode === 'all'} onChange={() => set('taskMode', 'all')} /> all tasks
        </label>
        <label>
          <input type="radio" checked={f.taskMode === 'ids'} onChange={() => set('taskMode', 'ids')} /> these ids
        </label>
        <label>
          <input type="radio" checked={f.taskMode === 'filter'} onChange={() => set('taskMode', 'filter')} /> a filter
        </label>
        <button type="button" onClick={takeTasksFilter} title="The filter and search the Tasks page has now">
          Use the Tasks page's filter
        </button>
        {f.taskMode === 'ids' && field('ids', 'Task ids', { placeholder: 'comma- or line-separated' })}
        {f.taskMode === 'filter' && (
          <>
            {field('quick', 'Search', { placeholder: 'as the Tasks page quick search' })}
            {field('where', 'Filter JSON', { placeholder: '[{"field":"origin","conditions":[…]}] (as --where)' })}
          </>
        )}
        <span className="hint" data-testid="run-task-count">
          {count === null ? '' : `${count} task${count === 1 ? '' : 's'} × ${f.trials || '3'} trials`}
        </span>
      </fieldset>
      <fieldset>
        <legend>Agent</legend>
        <label>
          Agent{' '}
          <select aria-label="Agent" value={f.agent} onChange={(e) => set('agent', e.target.value)}>
            <option value="reference">reference agent (replays reference plans, offline)</option>
            {endpointOptions}
          </select>
        </label>
        {isRef ? (
          <>
            {field('seed', 'Seed')}
            <label className={errors.clean ? 'field field-error' : 'field'}>
              <input type="checkbox" checked={f.clean} onChange={(e) => set('clean', e.target.checked)} /> Clean replays
              (no perturbation)
              {errors.clean && (
                <span className="field-message" role="alert" data-testid="error-clean">
                  {errors.clean}
                </span>
              )}
            </label>
            <label>
              Perturbations{' '}
              <select
                aria-label="Perturbations"
                value={f.perturb}
                onChange={(e) => set('perturb', e.target.value as RunForm['perturb'])}
              >
                <option value="mix">seeded mix (steady, flaky or failing per task)</option>
                <option value="rates">the same rates for every task</option>
              </select>
            </label>
            {f.perturb === 'rates' && (
              <>
                {field('skipStep', 'Skip step')}
                {field('wrongArgument', 'Wrong argument')}
                {field('prohibitedCall', 'Prohibited call')}
              </>
            )}
          </>
        ) : (
          <>
            {field('temperature', 'Temperature')}
            {field('maxTokens', 'Max tokens', { placeholder: 'endpoint default' })}
          </>
        )}
        <label>
          Simulated user{' '}
          <select aria-label="Simulated user" value={f.user} onChange={(e) => set('user', e.target.value)}>
            <option value="scripted">scripted (offline)</option>
            {endpointOptions}
          </select>
        </label>
      </fieldset>
      <fieldset>
        <legend>Run</legend>
        {field('trials', 'Trials')}
        {field('concurrency', 'Concurrency')}
        {field('maxAttempts', 'Attempts per model call')}
        {field('collection', 'Collection', { placeholder: 'a new one' })}
        {field('name', 'Name', { placeholder: 'agent on N tasks × k' })}
      </fieldset>
      <ErrorNotice error={error} onDismiss={() => setError(null)} testId="run-start-error" />
      <div className="dialog-actions">
        <button type="submit" data-testid="run-start">
          Start run
        </button>
      </div>
    </form>
  );
}
