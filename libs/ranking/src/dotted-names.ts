// A dotted name: two or more parts of a letter or underscore and at least one more word character, joined by single
// dots ("user.email", "core.autocrlf", "os.path.join", "index.html", "Node.js"). Not a part of a longer token: not
// after a word character, dot, hyphen, slash, "@" or ":" (a URL's host or path, an e-mail address, "git-config.txt"),
// nor before one of "@", "/", "-" or a dot and a word character. One-letter parts ("e.g.", "U.S.") and numbers
// ("v1.2", "3.14") are left alone.
const DOTTED_NAME = /(?<![\w.\-/@:])[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+(?![\w@/-]|\.\w)/g;
// The test that lets most text through untouched: no word character, dot and letter in a row.
const MAYBE_DOTTED = /\w\.[A-Za-z_]/;

function hyphenated(name: string): string {
  return name.replace(/\./g, '-');
}

/**
 * The text with its dotted names written with hyphens instead ("user.email" → "user-email"). Postgres's text search
 * parser reads a dotted name as one host or file token, so "user.email" was one lexeme that neither "email" nor "user
 * email" matched; a hyphenated word it indexes whole and as its parts ("user-email", "user", "email"), so the name
 * typed whole still matches and so does each part. Used on both sides of a search, as segmentWords is: what is indexed
 * and the query.
 */
export function hyphenateDottedNames(text: string): string {
  if (!MAYBE_DOTTED.test(text)) return text;
  return text.replace(DOTTED_NAME, hyphenated);
}
