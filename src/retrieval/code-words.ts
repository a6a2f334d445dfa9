/**
 * Code-aware words: what an identifier is made of, so that `getServerSession` is found by
 * "server session", and `frozen-lockfile` or `DATABASE_URL` by `frozenLockfile` or `databaseurl`.
 *
 * The full-text tokenizer (unicode61) already splits on `-`, `_`, `.` and `/`, so a kebab,
 * snake, dotted or path name is searchable by its parts; what it cannot do is split camelCase
 * (one token, `getserversession`) or join parts back into the whole. This function adds exactly
 * those words. It is applied to every indexed text (a column of its own) and to every query, by
 * every store, so both sides meet on the same words. Pure: no index, no database.
 */

/** An identifier-like run: letters and digits joined by `_ - . /` or with case humps. */
const IDENTIFIER = /[\p{L}\p{N}]+(?:[_\-./][\p{L}\p{N}]+)*/gu
const JOINERS = /[_-]/
/** Lower-to-upper humps and acronym ends: getHTTPServer -> get HTTP Server. */
const HUMPS = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u

/** More code words than this from one text add time, not relevance. */
const MAX_CODE_WORDS = 64

export const codeWords = (text: string): string[] => {
  const found = new Set<string>()
  for (const [run] of text.matchAll(IDENTIFIER)) {
    for (const segment of run.split(/[./]/)) {
      for (const word of segment.split(/[_-]/)) {
        const humps = word.split(HUMPS)
        if (humps.length > 1) for (const part of humps) found.add(part.toLowerCase())
      }
      // A compound of parts joined by - or _ is also searchable whole: frozen-lockfile -> frozenlockfile.
      if (JOINERS.test(segment)) found.add(segment.replace(/[_-]/g, "").toLowerCase())
    }
    if (found.size >= MAX_CODE_WORDS) break
  }
  return [...found].filter((w) => w.length > 1).slice(0, MAX_CODE_WORDS)
}

/** The `code` column of an indexed text: its code words, space-separated. */
export const codeColumn = (...texts: ReadonlyArray<string>): string => codeWords(texts.join(" ")).join(" ")
