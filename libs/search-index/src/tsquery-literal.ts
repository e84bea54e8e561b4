/** A lexeme as a tsquery operand: quoted, with quotes and backslashes escaped, so it is matched verbatim. */
export function tsqueryOperand(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** Any of the lexemes: the OR query that gives the candidate step its recall. */
export function anyLexemeQuery(lexemes: string[]): string {
  return lexemes.map(tsqueryOperand).join(' | ');
}
