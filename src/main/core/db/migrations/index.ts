import type { Db } from '../sqlite';
import * as m0001 from './0001-init';
import * as m0002 from './0002-plan-stats-indexes';
import * as m0003 from './0003-tasks';
import * as m0004 from './0004-validation';
import * as m0005 from './0005-trajectories';
import * as m0006 from './0006-job-results';
import * as m0007 from './0007-endpoints';
import * as m0008 from './0008-generation';
import * as m0009 from './0009-trajectories-v2';
import * as m0010 from './0010-grid';
import * as m0011 from './0011-curation';
import * as m0012 from './0012-bucket-index';
import * as m0013 from './0013-bucket-join';
import * as m0014 from './0014-slot-facets';
import * as m0015 from './0015-fts-merge';
import * as m0016 from './0016-task-source';
import * as m0017 from './0017-mean-buckets';
import * as m0018 from './0018-score-of-record';
import * as m0019 from './0019-upstream-grades';
import * as m0020 from './0020-undo-history';
import * as m0021 from './0021-cjk-search';
import * as m0027 from './0027-grid-job-batches';
import * as m0028 from './0028-task-merge';
import * as m0031 from './0031-upstream-in-app';

export type Migration = { name: string; up(db: Db): void };

/** Ordered; a workspace's PRAGMA user_version is the number of these it has applied. Append only. */
export const MIGRATIONS: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
  m0018,
  m0019,
  m0020,
  m0021,
  m0027,
  m0028,
  m0031,
];
