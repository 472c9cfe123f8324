import { crossService } from './cross-service';
import type { Family, Scenario } from './family';
import { multiTurn } from './multi-turn';
import { safety } from './safety';
import { singleService } from './single-service';
import { temporal } from './temporal';

/** The scenario library by slot scenario (DESIGN.md §7). */
export const FAMILIES: Record<Scenario, Family> = {
  single_service: singleService,
  cross_service: crossService,
  safety,
  temporal,
  multi_turn: multiTurn,
};
