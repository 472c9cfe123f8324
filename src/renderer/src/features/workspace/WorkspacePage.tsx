import { useEffect, useState } from 'react';
import type { WorkspaceInfo } from '../../../../shared/contract/workspace.contract';
import { call, errorText } from '../../api/client';
import { transportKind } from '../../api/transport';

export function WorkspacePage() {
  const [info, setInfo] = useState<WorkspaceInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => void call('workspace.info', {}).then(setInfo, (e) => setError(errorText(e))), []);
  return (
    <section className="page">
      <h1>Workspace</h1>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {info && (
        <dl className="facts" data-testid="workspace-info">
          <dt>File</dt>
          <dd>{info.path}</dd>
          <dt>Schema</dt>
          <dd>
            {info.schemaVersion} (this app: {info.appSchemaVersion})
          </dd>
          <dt>Size</dt>
          <dd>
            {(info.sizeBytes / 1024).toFixed(0)} KiB · journal {info.journalMode}
            {info.readOnly ? ' · read-only' : ''}
          </dd>
          <dt>Created</dt>
          <dd>{info.createdAt}</dd>
          <dt>Rows</dt>
          <dd>
            {info.counts.slots} slots · {info.counts.jobs} jobs
          </dd>
          <dt>Connection</dt>
          <dd>{transportKind === 'ipc' ? 'desktop (IPC)' : 'browser mode (HTTP on 127.0.0.1)'}</dd>
        </dl>
      )}
    </section>
  );
}
