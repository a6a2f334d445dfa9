/**
 * Makes the answers of two stores comparable: the same operations on two stores give the same
 * answers except for what is random or time-bound. Ids become <id1>, <id2>... in order of first
 * appearance (a short id becomes its full id's name), times and hashes become placeholders,
 * what depends on the file, the moment or the ids' characters is hidden (HIDDEN_KEYS), and
 * numbers are rounded (decay moves them by the millisecond).
 */
const ID = /\b[0-9a-hjkmnp-tv-z]{26}\b/g
const SHORT_ID = /\b[0-9a-hjkmnp-tv-z]{8,25}\b/g
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/
/**
 * The file; what depends on the moment (an age in days shows seconds at three decimals); and a
 * context's token count, which depends on how the random ids in its text tokenize.
 */
const HIDDEN_KEYS = new Set(["path", "bytes", "hash", "payloadHash", "ageDays", "tokens"])

export const normalizer = () => {
  const names = new Map<string, string>()
  const nameOf = (id: string) => {
    if (!names.has(id)) names.set(id, `<id${names.size + 1}>`)
    return names.get(id)!
  }
  const text = (s: string): string => {
    if (TIME.test(s)) return "<time>"
    // Short ids are prefixes of ids already seen, at least 8 characters: each is named after the
    // id it is a prefix of as a whole (two ids of the same minute may share their first 8).
    return s.replace(ID, nameOf).replace(SHORT_ID, (short) => {
      for (const [id, name] of names) if (id.startsWith(short)) return name
      return short
    })
  }
  const value = (v: unknown): unknown => {
    if (typeof v === "string") return text(v)
    if (typeof v === "number") return Math.round(v * 1000) / 1000
    if (Array.isArray(v)) return v.map(value)
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, HIDDEN_KEYS.has(k) ? "<hidden>" : value(x)]))
    }
    return v
  }
  return value
}
