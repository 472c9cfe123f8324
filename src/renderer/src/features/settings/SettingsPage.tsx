import { Fragment, useCallback, useEffect, useState } from 'react';
import type { Endpoint, EndpointTestResult } from '../../../../shared/contract/endpoints.contract';
import { call, errorText, onEvent } from '../../api/client';
import { EndpointForm } from './EndpointForm';
import { JudgeSetting } from './JudgeSetting';
import { UpstreamSetting } from './UpstreamSetting';
import { ErrorNotice } from '../../components/ErrorNotice';

type Keychain = { available: boolean; reason: string };
const cap = (v: boolean | null) => (v === null ? 'unknown' : v ? 'yes' : 'no');

function TestResult({ name, t }: { name: string; t: EndpointTestResult }) {
  return (
    <div
      className={`notice ${t.ok ? 'notice-info' : 'notice-error'} test-result`}
      data-testid={`endpoint-test-${name}`}
    >
      <div>
        <strong>
          {t.ok ? `Works — answered in ${t.latency_ms} ms` : `Failed: ${t.problem?.replaceAll('_', ' ')}`}
        </strong>
        <div>{t.ok ? null : t.message}</div>
        {t.ok && (
          <ul>
            <li>
              Tool calls:{' '}
              <span className={`chip chip-${t.tool_calls === 'supported' ? 'pass' : 'fail'}`}>{t.tool_calls}</span>{' '}
              {t.tool_calls_detail}
            </li>
            <li>
              JSON mode:{' '}
              <span className={`chip chip-${t.json_mode === 'supported' ? 'pass' : 'fail'}`}>{t.json_mode}</span>{' '}
              {t.json_mode_detail}
            </li>
          </ul>
        )}
        <div className="hint">tested {t.at.replace('T', ' ').slice(0, 19)}</div>
      </div>
    </div>
  );
}

/** Settings: the model endpoints every model-using feature (generator, runs, judge, simulated user) picks from. */
export default function SettingsPage() {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [keychain, setKeychain] = useState<Keychain>({ available: false, reason: '' });
  const [editing, setEditing] = useState<Endpoint | 'new' | null>(null);
  const [testing, setTesting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    () =>
      void call('endpoints.list', {}).then(
        (r) => (setEndpoints(r.endpoints), setKeychain(r.keychain)),
        (e) => setError(errorText(e)),
      ),
    [],
  );
  useEffect(() => {
    load();
    return onEvent('table.changed', ({ table }) => table === 'endpoints' && load());
  }, [load]);

  const test = async (name: string) => {
    setError(null);
    setTesting(name);
    try {
      const result = await call('endpoints.test', { name });
      await call('endpoints.update', { name, last_test: result });
      load();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setTesting(null);
    }
  };
  const remove = async (name: string) => {
    if (!window.confirm(`Remove the endpoint ${name}? Runs keep the name they recorded.`)) return;
    try {
      await call('endpoints.remove', { name });
      setError(null);
      load();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section className="page" data-testid="settings-page">
      <h1>Settings</h1>
      <h2 className="section-title">Model endpoints</h2>
      <p className="hint">
        Used by the LLM task generator, teacher and student runs, the LLM judge and simulated users. Keys never enter
        the workspace:{' '}
        {keychain.available
          ? 'they are encrypted by the OS keychain, or read from an environment variable named per endpoint.'
          : 'they are read from an environment variable named per endpoint.'}
      </p>
      {!keychain.available && (
        <p className="hint" data-testid="keychain-note">
          OS keychain: {keychain.reason}
        </p>
      )}
      <div className="toolbar">
        <button type="button" onClick={() => setEditing('new')}>
          Add endpoint
        </button>
      </div>
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
      {endpoints && endpoints.length === 0 && <p className="hint">No endpoints yet.</p>}
      {endpoints && endpoints.length > 0 && (
        <table className="table endpoints" data-testid="endpoints-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Model</th>
              <th>Key</th>
              <th>Tool calls</th>
              <th>JSON mode</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {endpoints.map((e) => (
              <Fragment key={e.name}>
                <tr data-testid={`endpoint-${e.name}`}>
                  <td>
                    <strong>{e.name}</strong>
                    <div className="hint">{e.base_url}</div>
                  </td>
                  <td>{e.model}</td>
                  <td data-testid="endpoint-key">
                    <span className={`chip chip-${e.key.present ? 'pass' : 'fail'}`}>
                      {e.key.present ? 'present' : 'missing'}
                    </span>{' '}
                    {e.key_source} · {e.key.where}
                  </td>
                  <td>{cap(e.tool_calls)}</td>
                  <td>{cap(e.json_mode)}</td>
                  <td className="row-actions">
                    <button type="button" disabled={testing !== null} onClick={() => void test(e.name)}>
                      {testing === e.name ? 'Testing…' : 'Test'}
                    </button>
                    <button type="button" onClick={() => setEditing(e)}>
                      Edit
                    </button>
                    <button type="button" onClick={() => void remove(e.name)}>
                      Remove
                    </button>
                  </td>
                </tr>
                {e.last_test && (
                  <tr className="test-row">
                    <td colSpan={6}>
                      <TestResult name={e.name} t={e.last_test} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <EndpointForm
          editing={editing === 'new' ? null : editing}
          keychain={keychain}
          onDone={(saved) => {
            setEditing(null);
            if (saved) load();
          }}
        />
      )}
      <JudgeSetting endpoints={(endpoints ?? []).map((e) => e.name)} />
      <UpstreamSetting />
    </section>
  );
}
