/**
 * Makes the answers of two stores comparable: the same operations on two stores give the same
 * answers except for what is random or time-bound. Ids become <id1>, <id2>... in order of first
 * appearance (a short id becomes its full id's name), times and hashes become placeholders,
 * what depends on the file, the moment or the ids' characters is hidden (HIDDEN_KEYS), and
 * numbers are rounded (decay moves them by the millisecond).
 */
const ID = /\b[0-9a-hjkmnp-tv-z]{26}\b/g
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
    let out = s.replace(ID, nameOf)
    // Short ids are prefixes of ids already seen: the store shows at least 8 characters.
    for (const [id, name] of names) out = out.replace(new RegExp(`\\b${id.slice(0, 8)}[0-9a-z]*\\b`, "g"), name)
    return out
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
