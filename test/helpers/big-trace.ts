import fs from 'node:fs';

const TRACE_ID = '7d2c4e1a-9b3f-4c5d-8e6f-a1b2c3d4e5f6';
const ts = (s: number) => {
  const d = new Date(Date.UTC(2026, 2, 5, 9, 0, 0) + s * 1500);
  const us = d.getUTCMilliseconds() ? `.${String(d.getUTCMilliseconds()).padStart(3, '0')}000` : '';
  return `${d.toISOString().slice(0, 19)}${us}+00:00`;
};

/**
 * Writes a canonical Claw-Eval trace of about `bytes` bytes to `file`, quickly and in constant
 * memory: trace_start, the prompt, then turns of (assistant tool_use, tool_dispatch, user
 * tool_result with a ~4 KB mixed-script text), trace_end. Every line is what upstream's writer
 * emits, so a round trip is byte-identical. Answers the number of turns written.
 */
export function writeBigTrace(file: string, bytes: number, taskId = 'T900_big_trace'): number {
  const fd = fs.openSync(file, 'w');
  let seq = 0;
  let written = 0;
  const put = (obj: string) => {
    const line = `${obj}\n`;
    fs.writeSync(fd, line);
    written += Buffer.byteLength(line);
  };
  const head = `"trace_id":"${TRACE_ID}"`;
  put(
    `{"type":"trace_start",${head},"task_id":"${taskId}","model":"m","persona":"default","timestamp":"${ts(seq++)}"}`,
  );
  put(
    `{"type":"message",${head},"message":{"role":"user","content":[{"type":"text","text":"Summarise every note.` +
      `"}],"reasoning_content":null},"usage":{"input_tokens":0,"output_tokens":0},"timestamp":"${ts(seq++)}"}`,
  );
  const chunk = 'Quarterly review 季度回顾 — revenue grew, costs fell; see the attached table. '.repeat(
    Number(process.env.BIG_TRACE_REPEAT ?? 48),
  );
  // Dense small values (the worst case per byte for a JSON reader's memory), when asked for.
  const value = (i: number) =>
    process.env.BIG_TRACE_OBJECTS ? `{"k":${i}}` : process.env.BIG_TRACE_INTS ? `${i % 10}` : `${i}.5`;
  const count = Number(process.env.BIG_TRACE_FLOATS ?? 0);
  const floats = count ? `,"values":[${Array.from({ length: count }, (_, i) => value(i)).join(',')}]` : '';
  let turns = 0;
  while (written < bytes) {
    const id = `toolu_${String(turns).padStart(7, '0')}`;
    put(
      `{"type":"message",${head},"message":{"role":"assistant","content":[{"type":"tool_use","id":"${id}","name` +
        `":"notes_get","input":{"note_id":"N-${turns}"}}],"reasoning_content":null},"usage":{"input_tokens":` +
        `${1200 + turns},"output_tokens":12},"timestamp":"${ts(seq++)}"}`,
    );
    put(
      `{"type":"tool_dispatch",${head},"tool_use_id":"${id}","tool_name":"notes_get","endpoint_url":"http://loc` +
        `alhost:9106/notes/get","request_body":{"note_id":"N-${turns}"},"response_status":200,"response_body":{"n` +
        `ote":{"id":"N-${turns}","amount":328.0,"body":"${chunk}"${floats}}},"latency_ms":1.5,"timestamp":"` +
        `${ts(seq++)}"}`,
    );
    put(
      `{"type":"message",${head},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"${id}` +
        `","content":[{"type":"text","text":"${chunk}"}],"is_error":false}],"reasoning_content":null},"usage":{"i` +
        `nput_tokens":0,"output_tokens":0},"timestamp":"${ts(seq++)}"}`,
    );
    turns++;
  }
  put(
    `{"type":"message",${head},"message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"reason` +
      `ing_content":null},"usage":{"input_tokens":900,"output_tokens":5},"timestamp":"${ts(seq++)}"}`,
  );
  put(
    `{"type":"trace_end",${head},"total_turns":${turns + 1},"model_input_tokens":900,"model_output_tokens":5,"i` +
      `nput_tokens":900,"output_tokens":5,"total_tokens":905,"model_time_s":0.0,"tool_time_s":0.0,"other_time_s":` +
      `0.0,"wall_time_s":0.0,"scores":{"completion":0.0,"robustness":0.0,"communication":0.0,"safety":1.0,"effici` +
      `ency_turns":0,"efficiency_tokens":0,"efficiency_wall_time_s":0.0},"task_score":0.0,"passed":false,"failure` +
      `_modes":[],"user_agent_rounds":0,"user_agent_max_rounds":0,"user_agent_done":false,"timestamp":"` +
      `${ts(seq++)}"}`,
  );
  fs.closeSync(fd);
  return turns;
}
