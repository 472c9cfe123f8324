import { p, type ToolDef } from '../tool-def';

/**
 * reference/claw-eval.md §6.6, §7.1. No todo_get_task: its route /todo/tasks/get does not exist
 * upstream (§7.2); the list returns full records. Fields the routes ignore (list `priority`,
 * update `description`, create `tags`) are not offered.
 */
export const TODO_TOOLS: readonly ToolDef[] = [
  {
    name: 'todo_list_tasks',
    route: '/todo/tasks',
    writes: false,
    en: 'Get all to-do items (full records)',
    zh: '获取所有待办事项（完整信息）',
    params: {
      status: p(
        'string',
        'Filter by status (pending/in_progress/completed/all)',
        '按状态筛选 (pending/in_progress/completed/all)',
        'all',
      ),
    },
    required: [],
  },
  {
    name: 'todo_create_task',
    route: '/todo/tasks/create',
    writes: true,
    en: 'Create a new to-do item',
    zh: '创建新的待办事项',
    params: {
      title: p('string', 'Task title', '任务标题'),
      description: p('string', 'Task description', '任务描述'),
      priority: p('string', 'Priority (high/medium/low)', '优先级 (high/medium/low)', 'medium'),
      due_date: p('string', 'Due date (YYYY-MM-DD)', '截止日期 (YYYY-MM-DD)'),
    },
    required: ['title'],
  },
  {
    name: 'todo_update_task',
    route: '/todo/tasks/update',
    writes: true,
    en: 'Update a to-do item',
    zh: '更新待办事项',
    params: {
      task_id: p('string', 'Task ID', '任务ID'),
      title: p('string', 'New title', '新标题'),
      priority: p('string', 'Priority (high/medium/low)', '优先级 (high/medium/low)'),
      status: p('string', 'Status (pending/in_progress/completed)', '状态 (pending/in_progress/completed)'),
      tags: p('array', 'Tag list', '标签列表'),
    },
    required: ['task_id'],
  },
  {
    name: 'todo_delete_task',
    route: '/todo/tasks/delete',
    writes: true,
    en: 'Permanently delete a to-do item',
    zh: '永久删除待办事项',
    params: { task_id: p('string', 'Task ID', '任务ID') },
    required: ['task_id'],
  },
];
