import path from 'node:path';
import { runCli } from './cli';

/** The `coworkenv` executable (bin/coworkenv.js loads this bundle). */
export function main(): void {
  const stop = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  runCli(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    rendererDir: path.join(__dirname, '../renderer'),
    untilStopped: () => stop,
    coreOptions: { workerEntry: path.join(__dirname, 'job-worker.js') },
  }).then(
    (code) => {
      // No process.exit(): it can cut off stdout that is still flushing to a pipe.
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`coworkenv: ${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}

main();
