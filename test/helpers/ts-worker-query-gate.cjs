// Job worker entry for tests of the query workers (core/jobs/off-thread.ts): ts-worker.cjs plus a gate. A query
// worker (helper 'export.queries') holds each request before running it: it writes `held-<id>` into the folder
// COWORKENV_TEST_GATE names, then waits until `open` exists there. So a test sees a query running in its worker
// for as long as it likes, whatever the machine's speed, and opens the gate when it is done looking.
const fs = require('node:fs');
const path = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');

const gate = process.env.COWORKENV_TEST_GATE;
if (gate && workerData && workerData.helper === 'export.queries') {
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const on = parentPort.on.bind(parentPort);
  parentPort.on = (event, listener) =>
    on(event, (m) => {
      if (event === 'message') {
        fs.writeFileSync(path.join(gate, `held-${m.id}`), '');
        while (!fs.existsSync(path.join(gate, 'open'))) Atomics.wait(nap, 0, 0, 5);
      }
      listener(m);
    });
}
require('tsx/cjs');
require('../../src/main/job-worker.ts');
