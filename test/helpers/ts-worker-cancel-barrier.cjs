// Job worker entry for tests that cancel a running job (ts-worker.cjs plus a barrier): a job that starts from nothing
// stops after its first committed batch until a cancel is asked for (its row's cancel_requested), then goes on and
// meets the cancel at its next batch. So a test's cancel (jobs.cancel, core.close) always lands after exactly one
// batch: it cannot lose a race with the job's end, whatever the machine's speed. A resumed job and helper threads
// run as usual. Use it only on cores whose fresh jobs the test cancels: another fresh job would wait for ever.
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');

if (workerData && !('helper' in workerData)) {
  const db = new Database(workerData.workspacePath, { readonly: true });
  const row = db.prepare('SELECT done, cancel_requested AS c FROM jobs WHERE id = ?');
  let passed = row.get(workerData.jobId)?.done !== 0;
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const post = parentPort.postMessage.bind(parentPort);
  // The worker posts its progress right after each batch commits: the barrier is there, before the next batch.
  parentPort.postMessage = (m) => {
    post(m);
    if (passed || m.type !== 'progress' || m.done === 0) return;
    passed = true;
    while (row.get(workerData.jobId)?.c !== 1) Atomics.wait(nap, 0, 0, 5);
  };
}
require('tsx/cjs');
require('../../src/main/job-worker.ts');
