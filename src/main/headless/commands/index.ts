import type { Command } from '../cli/command';
import { callCommand } from './call.command';
import {
  endpointsAddCommand,
  endpointsListCommand,
  endpointsRemoveCommand,
  endpointsTestCommand,
  endpointsUpdateCommand,
} from './endpoints.command';
import { envReplayCommand } from './env.command';
import { gradeCommand } from './grade.command';
import { proceduresCommand } from './procedures.command';
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
  validateCommand,
  gradeCommand,
  trajectoriesImportCommand,
  tracesImportCommand,
  tracesExportCommand,
  endpointsAddCommand,
  endpointsListCommand,
  endpointsTestCommand,
  endpointsUpdateCommand,
  endpointsRemoveCommand,
];
