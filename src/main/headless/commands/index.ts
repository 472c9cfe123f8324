import type { Command } from '../cli/command';
import { callCommand } from './call.command';
import {
  endpointsAddCommand,
  endpointsListCommand,
  endpointsRemoveCommand,
  endpointsTestCommand,
  endpointsUpdateCommand,
} from './endpoints.command';
import {
  curateAssignCommand,
  curateLogCommand,
  curateRedoCommand,
  curateSuggestCommand,
  curateUndoCommand,
} from './curate.command';
import { envReplayCommand } from './env.command';
import { envServeCommand } from './env-serve.command';
import {
  exportClawEvalCommand,
  exportDiffCommand,
  exportLintCommand,
  exportRlCommand,
  exportSftCommand,
} from './export.command';
import { generateCommand } from './generate.command';
import { gradeCommand } from './grade.command';
import { planExportCsvCommand, planImportCsvCommand } from './plan.command';
import { proceduresCommand } from './procedures.command';
import { reportCommand } from './report.command';
import { runCommand } from './run.command';
import { serveCommand } from './serve.command';
import { servicesServeCommand } from './services.command';
import { tasksImportCommand } from './tasks.command';
import { tracesExportCommand, tracesImportCommand } from './traces.command';
import { trajectoriesImportCommand } from './trajectories.command';
import { validateCommand } from './validate.command';

/** Every `coworkenv` command, in the order `--help` lists them. Adding one: a *.command.ts file and a line here. */
export const COMMANDS: readonly Command[] = [
  proceduresCommand,
  callCommand,
  serveCommand,
  tasksImportCommand,
  envReplayCommand,
  servicesServeCommand,
  planImportCsvCommand,
  planExportCsvCommand,
  generateCommand,
  validateCommand,
  gradeCommand,
  trajectoriesImportCommand,
  tracesImportCommand,
  tracesExportCommand,
  exportSftCommand,
  exportRlCommand,
  exportClawEvalCommand,
  exportDiffCommand,
  exportLintCommand,
  envServeCommand,
  runCommand,
  reportCommand,
  curateSuggestCommand,
  curateAssignCommand,
  curateLogCommand,
  curateUndoCommand,
  curateRedoCommand,
  endpointsAddCommand,
  endpointsListCommand,
  endpointsTestCommand,
  endpointsUpdateCommand,
  endpointsRemoveCommand,
];
