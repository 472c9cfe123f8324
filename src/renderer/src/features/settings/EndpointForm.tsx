import { useState } from 'react';
import type { Endpoint, KeySource } from '../../../../shared/contract/endpoints.contract';
import { call, errorText } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';

type Cap = 'auto' | 'yes' | 'no';
const capOf = (v: boolean | null): Cap => (v === null ? 'auto' : v ? 'yes' : 'no');
const capValue = (c: Cap) => (c === 'auto' ? null : c === 'yes');
const defaultEnv = (name: string) => `COWORKENV_KEY_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
/** An empty number field means "no default" (null); the timeout always has one. */
const num = (s: string) => (s.trim() === '' ? null : Number(s));

/**
 * Add or edit an endpoint. The key is typed only for the keychain source (desktop app), sent once
 * to be encrypted by the OS keychain, and never shown again; env endpoints name a variable.
 */
export function EndpointForm({
  editing,
  keychain,
  onDone,
}: {
  editing: Endpoint | null;
  keychain: { available: boolean; reason: string };
  onDone(saved: Endpoint | null): void;
}) {
  const [name, setName] = useState(editing?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(editing?.base_url ?? 'http://127.0.0.1:8000/v1');
  const [model, setModel] = useState(editing?.model ?? '');
  const [source, setSource] = useState<KeySource>(editing?.key_source ?? (keychain.available ? 'keychain' : 'env'));
  const [keyEnv, setKeyEnv] = useState(editing?.key_env ?? '');
  const [key, setKey] = useState('');
  const [temperature, setTemperature] = useState(editing?.temperature?.toString() ?? '');
  const [maxTokens, setMaxTokens] = useState(editing?.max_tokens?.toString() ?? '');
  const [timeout, setTimeoutMs] = useState((editing?.timeout_ms ?? 60_000).toString());
  const [json, setJson] = useState<Cap>(capOf(editing?.json_mode ?? null));
  const [tools, setTools] = useState<Cap>(capOf(editing?.tool_calls ?? null));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setError(null);
    setBusy(true);
    const common = {
      base_url: baseUrl,
      model,
      key_source: source,
      ...(source === 'env' && keyEnv.trim() ? { key_env: keyEnv.trim() } : {}),
      ...(source === 'keychain' && key ? { key } : {}),
      temperature: num(temperature),
      max_tokens: num(maxTokens),
      timeout_ms: Number(timeout),
      json_mode: capValue(json),
      tool_calls: capValue(tools),
    };
    try {
      const saved = editing
        ? await call('endpoints.update', { name: editing.name, ...common })
        : await call('endpoints.add', { name, ...common });
      setKey('');
      onDone(saved);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      className="dialog-backdrop"
      role="dialog"
      aria-label={editing ? `Edit endpoint ${editing.name}` : 'Add endpoint'}
    >
      <form
        className="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <h2>{editing ? `Edit ${editing.name}` : 'Add a model endpoint'}</h2>
        <p className="hint">
          Any OpenAI-compatible chat-completions server: vLLM, Ollama, llama.cpp, LM Studio or a hosted API.
        </p>
        <label>
          Name
          <input value={name} disabled={!!editing} onChange={(e) => setName(e.target.value)} placeholder="local-qwen" />
        </label>
        <label>
          Base URL
          <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
        </label>
        <label>
          Model
          <input value={model} onChange={(e) => setModel(e.target.value)} placeholder="qwen3-8b" />
        </label>
        <label>
          Key source
          <select value={source} onChange={(e) => setSource(e.target.value as KeySource)}>
            <option value="keychain" disabled={!keychain.available}>
              OS keychain{keychain.available ? '' : ' (desktop app only)'}
            </option>
            <option value="env">Environment variable</option>
            <option value="none">No key (local server)</option>
          </select>
        </label>
        {source === 'keychain' && (
          <label>
            API key{' '}
            {editing?.key_source === 'keychain' && editing.key.present ? '(leave empty to keep the stored one)' : ''}
            <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
          </label>
        )}
        {source === 'env' && (
          <label>
            Variable name (its value is the key; set it where the app runs)
            <input
              value={keyEnv}
              onChange={(e) => setKeyEnv(e.target.value)}
              placeholder={defaultEnv(name || 'NAME')}
            />
          </label>
        )}
        <div className="form-row">
          <label>
            Temperature
            <input value={temperature} onChange={(e) => setTemperature(e.target.value)} placeholder="server default" />
          </label>
          <label>
            Max tokens
            <input value={maxTokens} onChange={(e) => setMaxTokens(e.target.value)} placeholder="server default" />
          </label>
          <label>
            Timeout (ms)
            <input value={timeout} onChange={(e) => setTimeoutMs(e.target.value)} />
          </label>
        </div>
        <div className="form-row">
          {(
            [
              ['Tool calls', tools, setTools],
              ['JSON mode', json, setJson],
            ] as const
          ).map(([label, value, set]) => (
            <label key={label}>
              {label}
              <select value={value} onChange={(e) => set(e.target.value as Cap)}>
                <option value="auto">unknown (Test finds out)</option>
                <option value="yes">supported</option>
                <option value="no">not supported</option>
              </select>
            </label>
          ))}
        </div>
        <ErrorNotice error={error} onDismiss={() => setError(null)} />
        <div className="dialog-actions">
          <button type="button" onClick={() => onDone(null)}>
            Cancel
          </button>
          <button type="submit" disabled={busy}>
            {editing ? 'Save' : 'Add'}
          </button>
        </div>
      </form>
    </div>
  );
}
