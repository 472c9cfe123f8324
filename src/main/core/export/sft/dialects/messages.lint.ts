import { err, type Issue, isPlainObject, isRecord } from './dialect';

/**
 * The OpenAI-shaped `messages` rules shared by TRL (§3.1), OpenAI fine-tuning (§3.2) and verl
 * (§3.4); each dialect says how arguments are carried and which keys a message may have.
 */
export type MessagesRules = {
  /** object: TRL's dict arguments; string: a JSON string that parses to an object (OpenAI, verl). */
  argumentsAs: 'object' | 'string';
  /** Tool messages carry `name` equal to the call's (TRL), must not (OpenAI), or may (verl: null allowed). */
  toolName: 'required' | 'forbidden' | 'optional';
  /** Keys allowed per role (OpenAI: only documented ones); null: any. */
  allowedKeys: Record<string, readonly string[]> | null;
  /** verl's parquet struct gives every message every key: absent values read back as null. */
  nullsForAbsent: boolean;
  /**
   * How a conversation may end: on the assistant (OpenAI), or also on the results of the last turn's calls
   * (TRL, verl: their loaders take any last role; the results are context nothing trains on).
   */
  endsOn: 'assistant' | 'assistant-or-results';
};

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

export function lintMessages(messages: unknown, toolNames: ReadonlySet<string> | null, r: MessagesRules): Issue[] {
  const out: Issue[] = [];
  if (!Array.isArray(messages) || messages.length === 0)
    return [err('messages_missing', 'messages is not a non-empty list')];
  const present = (m: Record<string, unknown>, k: string) => m[k] !== undefined && !(r.nullsForAbsent && m[k] === null);
  const ids = new Set<string>();
  let pending: { id: string; name: string }[] = [];
  let assistants = 0;
  messages.forEach((m, i) => {
    const at = `messages[${i}]`;
    if (!isRecord(m)) return void out.push(err('message_shape', `${at} is not an object`));
    const role = m.role;
    if (typeof role !== 'string' || !ROLES.has(role))
      return void out.push(err('bad_role', `${at}.role is ${JSON.stringify(role)}`));
    if (role === 'system' && i !== 0) out.push(err('system_not_first', `${at} is a system message not at index 0`));
    const allowed = r.allowedKeys?.[role];
    if (allowed)
      for (const k of Object.keys(m))
        if (!allowed.includes(k)) out.push(err('undocumented_key', `${at} has key ${k}, not allowed on ${role}`));
    if (role !== 'tool' && pending.length) {
      out.push(err('call_unanswered', `call ${pending[0]!.id} has no tool message before ${at}`));
      pending = [];
    }
    const content = m.content;
    const hasCalls = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
    if (
      typeof content !== 'string' &&
      !(role === 'assistant' && hasCalls && (content === null || content === undefined))
    )
      out.push(err('bad_content', `${at}.content is not a string`));
    if (role === 'assistant') {
      assistants++;
      if (present(m, 'tool_calls') && !Array.isArray(m.tool_calls))
        out.push(err('tool_calls_shape', `${at}.tool_calls is not a list`));
      if (hasCalls) pending = lintCalls(m.tool_calls as unknown[], at, ids, toolNames, r, out);
      return;
    }
    if (present(m, 'tool_calls')) out.push(err('tool_calls_on_non_assistant', `${at} (${role}) has tool_calls`));
    if (role !== 'tool') return;
    const want = pending.shift();
    const id = m.tool_call_id;
    if (typeof id !== 'string') return void out.push(err('tool_call_id_missing', `${at} has no tool_call_id`));
    if (!want)
      return void out.push(err('tool_result_orphan', `${at} (${id}) answers no call of the preceding assistant`));
    if (want.id !== id) out.push(err('tool_call_id_mismatch', `${at} answers ${id}; call ${want.id} is next`));
    if (r.toolName === 'required' && m.name !== want.name)
      out.push(err('tool_name', `${at}.name is ${JSON.stringify(m.name)}; its call is ${want.name}`));
    if (r.toolName === 'forbidden' && m.name !== undefined) out.push(err('tool_name', `${at} carries name`));
    if (r.toolName === 'optional' && present(m, 'name') && m.name !== want.name)
      out.push(err('tool_name', `${at}.name is ${JSON.stringify(m.name)}; its call is ${want.name}`));
  });
  // Calls still pending here are the last turn's, which may have no results (a run cut short, §1.7's exception).
  if (!assistants) out.push(err('no_assistant', 'no assistant message: nothing to train on'));
  const last = messages[messages.length - 1];
  const endsOk = (role: unknown) => role === 'assistant' || (r.endsOn === 'assistant-or-results' && role === 'tool');
  if (isRecord(last) && !endsOk(last.role))
    out.push(
      err(
        'ends_on_non_assistant',
        r.endsOn === 'assistant'
          ? 'the last message is not an assistant message'
          : "the last message is neither an assistant message nor a result of the last turn's calls",
      ),
    );
  return out;
}

function lintCalls(
  calls: unknown[],
  at: string,
  ids: Set<string>,
  toolNames: ReadonlySet<string> | null,
  r: MessagesRules,
  out: Issue[],
): { id: string; name: string }[] {
  const pending: { id: string; name: string }[] = [];
  calls.forEach((c, j) => {
    const cat = `${at}.tool_calls[${j}]`;
    if (!isRecord(c) || !isRecord(c.function))
      return void out.push(err('tool_call_shape', `${cat} has no function object`));
    if (c.type !== 'function') out.push(err('tool_call_shape', `${cat}.type is not "function"`));
    const { name, arguments: args } = c.function;
    if (typeof c.id !== 'string' || !c.id) out.push(err('tool_call_id_missing', `${cat} has no id`));
    else if (ids.has(c.id)) out.push(err('tool_call_id_duplicate', `${cat}.id ${c.id} is used twice`));
    else ids.add(c.id);
    if (typeof name !== 'string' || !name) out.push(err('tool_call_shape', `${cat}.function.name is missing`));
    else if (toolNames && !toolNames.has(name)) out.push(err('unknown_tool', `${cat} calls ${name}, not in tools`));
    if (r.argumentsAs === 'object' && !isPlainObject(args))
      out.push(err('arguments_not_object', `${cat}.function.arguments is not an object`));
    if (r.argumentsAs === 'string') {
      if (typeof args !== 'string') out.push(err('arguments_not_string', `${cat}.function.arguments is not a string`));
      else if (!parsesToObject(args))
        out.push(err('arguments_unparseable', `${cat}.function.arguments is not a JSON object string`));
    }
    pending.push({ id: typeof c.id === 'string' ? c.id : '', name: typeof name === 'string' ? name : '' });
  });
  return pending;
}

/**
 * Long strings already seen to hold a JSON object: tool parameter schemas repeat on every row of a
 * task, and re-parsing them dominated the verl lint. Bounded; a pure function of the string.
 */
const SEEN_OBJECTS = new Set<string>();

export function parsesToObject(s: string): boolean {
  if (s.length > 256 && SEEN_OBJECTS.has(s)) return true;
  try {
    const ok = isPlainObject(JSON.parse(s));
    if (ok && s.length > 256) {
      if (SEEN_OBJECTS.size > 512) SEEN_OBJECTS.clear();
      SEEN_OBJECTS.add(s);
    }
    return ok;
  } catch {
    return false;
  }
}

/**
 * A tools list in the wrapper form; `parameters` an object, or (verl) a JSON string of one.
 * Answers the tool names, or null when the list is unusable or empty: a row without schemas (the
 * no-schema path of the dialects that render without them) has no names to check calls against.
 */
export function lintTools(tools: unknown, parametersAs: 'object' | 'string', out: Issue[]): Set<string> | null {
  if (!Array.isArray(tools)) {
    out.push(err('tools_shape', 'tools is not a list'));
    return null;
  }
  if (!tools.length) return null;
  const names = new Set<string>();
  tools.forEach((t, i) => {
    const fn = isRecord(t) ? t.function : undefined;
    if (!isRecord(t) || t.type !== 'function' || !isRecord(fn) || typeof fn.name !== 'string')
      return void out.push(err('tools_shape', `tools[${i}] is not {type: "function", function: {name, …}}`));
    names.add(fn.name);
    const p = fn.parameters;
    const ok = parametersAs === 'object' ? isPlainObject(p) : typeof p === 'string' && parsesToObject(p);
    if (!ok) out.push(err('tools_shape', `tools[${i}] (${fn.name}).parameters is not a JSON-schema ${parametersAs}`));
  });
  return names;
}
