import { Lexer, LineCounter, Parser } from 'yaml';

const COLLECTIONS = new Set(['block-map', 'block-seq', 'flow-collection']);

/**
 * Where YAML text first nests collections deeper than `limit`, or undefined. The `yaml` package composes documents
 * recursively and overflows the stack somewhere past a thousand levels, which it reports as "Maximum call stack size
 * exceeded" at wherever the stack ran out. Its parser (text → CST) is iterative, keeping open collections on
 * `parser.stack`, so this feeds it one lexeme at a time and stops as soon as that stack holds too many collections:
 * 8 MB of `[` costs a few hundred lexemes, not a parse. Run it before parseDocument.
 */
export function yamlTooDeep(text: string, limit: number): { line: number; col: number } | undefined {
  const lines = new LineCounter();
  const parser = new Parser(lines.addNewLine);
  lines.addNewLine(0); // Parser.parse does this for the first line; feeding lexemes by hand skips it.
  for (const lexeme of new Lexer().lex(text)) {
    for (const _ of parser.next(lexeme)) {
      // Finished documents are dropped: only the depth is wanted here.
    }
    // The stack is the document, its open collections and at most a scalar or two: counted only when it could be over.
    if (parser.stack.length > limit && parser.stack.filter((t) => COLLECTIONS.has(t.type)).length > limit)
      return lines.linePos(parser.offset);
  }
  return undefined;
}
