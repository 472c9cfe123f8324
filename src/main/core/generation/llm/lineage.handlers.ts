import type { HandlerMap } from '../../lib/handler-types';
import { lineageRepo } from './lineage.repo';

export const lineageHandlers = {
  'tasks.lineage': (input, ctx) => ({ taskId: input.taskId, ...lineageRepo(ctx.db).rounds(input.taskId) }),
} satisfies Partial<HandlerMap>;
