import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../src/main/core/lib/json-input';

describe('parseJsonText', () => {
  it('answers the value of valid JSON', () => {
    expect(parseJsonText('{"a": [1, "x", null]}', 'in.json')).toEqual({ ok: true, value: { a: [1, 'x', null] } });
  });

  // Each case: text, where the error is (line:col, 1-based). Some of these V8 reports with a
  // position, others ("Unexpected token") without one.
  const cases: [string, string][] = [
    ['{"a": }', '1:7'],
    ['{\n  "a": 1,\n  "b": x\n}', '3:8'],
    ['[1, 2,]', '1:7'],
    ['{a: 1}', '1:2'],
    ['{"a": 1}}', '1:9'],
    ['{"a": 1', '1:8'],
    ['{\n  "rows": [\n    {"id": 1,, "x": 2}\n  ]\n}', '3:14'],
    ['"abc', '1:5'],
    ['', '1:1'],
  ];
  for (const [text, where] of cases) {
    it(`names the source, line and column: ${JSON.stringify(text)}`, () => {
      const r = parseJsonText(text, 'body.json');
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.message).toMatch(new RegExp(`^body\\.json:${where}: not valid JSON \\(.+\\)$`));
      // The message never echoes the (possibly huge or secret) text back.
      if (text.length > 4) expect(r.message).not.toContain(text);
    });
  }
});
