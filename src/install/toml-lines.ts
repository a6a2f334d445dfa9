/**
 * A line scanner for TOML: which lines are table headers and which start a `key = value`, with
 * the table each line belongs to. It follows strings (multi-line ones included), comments and
 * brackets, so a `[x]` inside a multi-line string or array is never taken for a header, and it
 * refuses a file whose string or array never closes.
 */
import { Either } from "effect"
import { splitLines } from "./line-blocks.js"

export interface TomlLine {
  readonly text: string
  /** The key path of a `[table]` header line; `array` for `[[array.of.tables]]`. */
  readonly header?: { readonly path: ReadonlyArray<string>; readonly array: boolean }
  /** The table this line belongs to. */
  readonly table: ReadonlyArray<string>
  /** The dotted key a `key = value` line starts with. */
  readonly key?: ReadonlyArray<string>
  /** The line starts inside a multi-line string, array or inline table begun above. */
  readonly continues: boolean
}

const KEY = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')`
const KEY_PATH = String.raw`${KEY}(?:\s*\.\s*${KEY})*`
const HEADER = new RegExp(String.raw`^\s*(\[\[?)\s*(${KEY_PATH})\s*(\]\]?)\s*(?:#.*)?$`)
const KEY_VALUE = new RegExp(String.raw`^\s*(${KEY_PATH})\s*=`)

/** Splits the text into lines (each with its line ending) and tells headers, keys and the rest apart. */
export const scanToml = (text: string): Either.Either<ReadonlyArray<TomlLine>, string> => {
  const lines: Array<TomlLine> = []
  let table: ReadonlyArray<string> = []
  let open: '"""' | "'''" | null = null
  let depth = 0
  for (const raw of splitLines(text)) {
    const content = raw.replace(/\r?\n$/, "")
    const atStart = open === null && depth === 0
    const header = atStart ? HEADER.exec(content) : null
    if (header !== null && header[1]!.length === header[3]!.length) {
      const path = keyPath(header[2]!)
      lines.push({ text: raw, header: { path, array: header[1] === "[[" }, table: path, continues: false })
      table = path
      continue
    }
    const key = atStart ? KEY_VALUE.exec(content) : null
    lines.push({ text: raw, table, continues: !atStart, ...(key === null ? {} : { key: keyPath(key[1]!) }) })
    const state = scanLine(content, open, depth)
    open = state.open
    depth = state.depth
  }
  if (open !== null) return Either.left(`a multi-line string (${open}) is never closed`)
  if (depth !== 0) return Either.left("an array or inline table is never closed")
  return Either.right(lines)
}

/** Follows strings, comments and brackets through one line. */
const scanLine = (line: string, open: '"""' | "'''" | null, depth: number): { open: '"""' | "'''" | null; depth: number } => {
  let i = 0
  while (i < line.length) {
    if (open !== null) {
      const close = open === "'''" ? line.indexOf("'''", i) : closingQuotes(line, i)
      if (close < 0) return { open, depth }
      i = close + 3
      open = null
      continue
    }
    const c = line[i]!
    if (c === "#") break
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      open = line.startsWith('"""', i) ? '"""' : "'''"
      i += 3
    } else if (c === '"') {
      i = endOfBasicString(line, i + 1)
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1)
      i = end < 0 ? line.length : end + 1
    } else {
      if (c === "[" || c === "{") depth++
      if (c === "]" || c === "}") depth = Math.max(0, depth - 1)
      i++
    }
  }
  return { open, depth }
}

const closingQuotes = (line: string, from: number): number => {
  for (let i = from; i < line.length; i++) {
    if (line[i] === "\\") i++
    else if (line.startsWith('"""', i)) return i
  }
  return -1
}

const endOfBasicString = (line: string, from: number): number => {
  for (let i = from; i < line.length; i++) {
    if (line[i] === "\\") i++
    else if (line[i] === '"') return i + 1
  }
  return line.length
}

const keyPath = (text: string): ReadonlyArray<string> => (text.match(new RegExp(KEY, "g")) ?? []).map(unquote)

const unquote = (key: string): string => {
  if (key.startsWith("'")) return key.slice(1, -1)
  if (!key.startsWith('"')) return key
  try {
    return JSON.parse(key) as string
  } catch {
    return key.slice(1, -1)
  }
}
