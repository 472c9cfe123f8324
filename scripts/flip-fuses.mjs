// Flips the Electron fuses of a packaged CoworkEnv Studio, after packaging and before signing:
//   node --import tsx scripts/flip-fuses.mjs <packaged app> [--platform P] [--arch A] [--asar-integrity]
// <packaged app>: "CoworkEnv Studio.app" on macOS, the app's executable on Windows and Linux (beside resources/).
// The choices and their reasons live in src/main/electron/fuses.ts (unit-tested); this script applies them,
// reads the fuse wire back and fails when a fuse did not take.
import { parseArgs } from 'node:util';
import { flipFuses, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { FUSE_REASONS, fuseConfig, fuseMismatches, inspectPackagedApp } from '../src/main/electron/fuses.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    platform: { type: 'string', default: process.platform },
    arch: { type: 'string', default: process.arch },
    'asar-integrity': { type: 'boolean', default: false },
  },
});
if (positionals.length !== 1) {
  process.stderr.write('usage: node --import tsx scripts/flip-fuses.mjs <packaged app> [--platform P] [--arch A]\n');
  process.exit(2);
}
const appPath = positionals[0];
const app = inspectPackagedApp(appPath, {
  platform: values.platform,
  arch: values.arch,
  asarIntegrityFlag: values['asar-integrity'],
});
const config = fuseConfig(app);
await flipFuses(appPath, config);
const wire = await getCurrentFuseWire(appPath);
const bad = fuseMismatches(config, wire);
for (const f of Object.values(FuseV1Options).filter((v) => typeof v === 'number'))
  process.stdout.write(`${FuseV1Options[f]}: ${config[f] ? 'on ' : 'off'}  ${FUSE_REASONS[f]}\n`);
// A newer Electron may have fuses this @electron/fuses does not know (WasmTrapHandlers): they keep their default.
for (const i of Object.keys(wire).filter((k) => /^\d+$/.test(k) && FuseV1Options[k] === undefined))
  process.stdout.write(
    `fuse #${i}: unknown to @electron/fuses, left at ${wire[i] === 49 ? 'on' : 'off'} (Electron's default)\n`,
  );
if (bad.length) {
  process.stderr.write(`flip-fuses: ${appPath}: the binary does not hold the wanted fuses: ${bad.join('; ')}\n`);
  process.exit(1);
}
process.stdout.write(`flip-fuses: ${appPath}: done (asar: ${app.asar}, asar integrity: ${app.asarIntegrity})\n`);
