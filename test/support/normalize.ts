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
  // The ids seen beside their own short id: memories'. A short id is unique among memories only,
  // and an event's id of the same millisecond shares its first 10 characters.
  const memoryIds = new Set<string>()
  const text = (s: string): string => {
    if (TIME.test(s)) return "<time>"
    // Short ids are prefixes of ids already seen, at least 8 characters: each is named after the
    // memory's id it is a prefix of, else after any id it is a prefix of, as a whole.
    return s.replace(ID, nameOf).replace(SHORT_ID, (short) => {
      for (const id of memoryIds) if (id.startsWith(short)) return nameOf(id)
      for (const [id, name] of names) if (id.startsWith(short)) return name
      return short
    })
  }
  const value = (v: unknown): unknown => {
    if (typeof v === "string") return text(v)
    if (typeof v === "number") return Math.round(v * 1000) / 1000
    if (Array.isArray(v)) return v.map(value)
    if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>
      if (typeof o.id === "string" && typeof o.shortId === "string" && o.id.startsWith(o.shortId)) memoryIds.add(o.id)
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, HIDDEN_KEYS.has(k) ? "<hidden>" : value(x)]))
    }
    return v
  }
  return value
}
