import { Trajectory } from '../../../shared/contract/entities/trajectory';
import type { SourceFormat } from '../../../shared/contract/entities/trajectory';
import type { ReadDb } from '../db/sqlite';
import { toPlain, withoutUndefined, type PyValue } from '../services/pyjson';
import { readRecord } from './formats';
import { runsRepo } from './runs.repo';
import type { TrajectoryBody } from './trajectories.repo';

/** Optional fields left undefined would be written `null` by dumpsPy and then fail the schema on the way back. */
export { withoutUndefined };

/**
 * A stored trajectory as the canonical Trajectory: the stored Trajectory JSON when there is one
 * (runs, edits, and traces imported before 0009), else read again from the source record with the
 * same reader the import used (so a reader fix reaches old imports too; rewards excepted: a row keeps
 * the reward it was stored with, see rewardOf). Free-form floats come back as plain numbers;
 * exportTrace gives a trace's exact bytes.
 */
export function loadTrajectory(db: ReadDb, format: SourceFormat, body: TrajectoryBody): Trajectory {
  if (body.trajectory !== null) return Trajectory.parse(JSON.parse(body.trajectory));
  const header = body.context_id === null ? null : runsRepo(db).context(body.context_id);
  const t = readRecord(format, body.raw!.toString('utf8'), { file: body.file, header, stored: true }).trajectory;
  return Trajectory.parse(toPlain(withoutUndefined(t as unknown as PyValue)));
}
