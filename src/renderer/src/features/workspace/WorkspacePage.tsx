import { useEffect, useState } from 'react';
import type { WorkspaceInfo } from '../../../../shared/contract/workspace.contract';
import { call, errorText, onEvent } from '../../api/client';
import { transportKind } from '../../api/transport';
import { ErrorNotice } from '../../components/ErrorNotice';

const n = (x: number) => x.toLocaleString('en-US');

/** The open workspace: file, schema, size and what it holds; refreshed when anything changes. */
export default function WorkspacePage() {
  const [info, setInfo] = useState<WorkspaceInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const load = () =>
      void call('workspace.info', {}).then(
        (i) => (setInfo(i), setError(null)),
        (e) => setError(errorText(e)),
      );
    load();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onEvent('table.changed', () => {
      clearTimeout(timer);
      timer = setTimeout(load, 250);
    });
    return () => (clearTimeout(timer), off());
  }, []);
  return (
    <section className="page">
      <h1>Workspace</h1>
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
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
          <dd data-testid="workspace-counts">
            {n(info.counts.slots)} slots · {n(info.counts.tasks)} tasks ({n(info.counts.taskVersions)} versions,{' '}
            {n(info.counts.validationReports)} validation rounds) · {n(info.counts.trajectories)} trajectories ·{' '}
            {n(info.counts.jobs)} jobs
          </dd>
          <dt>Connection</dt>
          <dd>{transportKind === 'ipc' ? 'desktop (IPC)' : 'browser mode (HTTP on 127.0.0.1)'}</dd>
        </dl>
      )}
    </section>
  );
}
