import { p, type ToolDef } from '../tool-def';

/** reference/claw-eval.md §6.9, §7.1. The list takes only max_results (tag/date filters are ignored upstream, §7.2). */
export const NOTES_TOOLS: readonly ToolDef[] = [
  {
    name: 'notes_list',
    route: '/notes/list',
    writes: false,
    en: 'Get the list of meeting notes',
    zh: '获取会议记录列表',
    params: { max_results: p('integer', 'Maximum number of results to return', '最大返回数量', 10) },
    required: [],
  },
  {
    name: 'notes_get',
    route: '/notes/get',
    writes: false,
    en: 'Get the detailed content of a meeting note by ID',
    zh: '根据ID获取会议记录详细内容',
    params: { note_id: p('string', 'Meeting note ID', '会议记录ID') },
    required: ['note_id'],
  },
  {
    name: 'notes_share',
    route: '/notes/share',
    writes: true,
    en: 'Share meeting notes with other people',
    zh: '将会议记录分享给其他人',
    params: {
      note_id: p('string', 'Meeting note ID', '会议记录ID'),
      recipients: p('array', 'List of recipient email addresses', '接收人邮箱列表'),
    },
    required: ['note_id', 'recipients'],
  },
];
