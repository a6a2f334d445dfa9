/**
 * One table of a TOML file (`[mcp_servers.memledger]`), added, replaced or taken out as text.
 * There is no TOML library in the bundle, and none is needed: every byte outside that table
 * stays as it was, comments and all; toml-lines.ts tells which lines are headers and keys.
 */
import { Either } from "effect"
import { appendBlock, cutBlock, isBlank, newlineOf } from "./line-blocks.js"
import { scanToml, type TomlLine } from "./toml-lines.js"

/**
 * The text with the table at `path` setting `entries` (key, TOML value text). An existing table
 * keeps its other keys and sub-tables (a user's `env` or timeout), and its place in the file.
 */
export const withTable = (text: string, path: ReadonlyArray<string>, entries: ReadonlyArray<readonly [string, string]>): Either.Either<string, string> =>
  Either.flatMap(scanToml(text), (lines) => {
    const conflict = definedElsewhere(lines, path)
    if (conflict !== undefined) return Either.left(conflict)
    const newline = newlineOf(text)
    const entryLine = ([key, value]: readonly [string, string]) => `${tomlKey(key)} = ${value}${newline}`
    const region = regionOf(lines, path)
    if (region === undefined) {
      return Either.right(appendBlock(text, [`[${path.map(tomlKey).join(".")}]${newline}`, ...entries.map(entryLine)].join("")))
    }
    const texts = lines.map((l) => l.text)
    // Each entry replaces its own line (and the lines its value continues on), or goes after the table's last key.
    for (const entry of entries) {
      const own = ownKeyLines(lines, region)
      const at = own.find((l) => l.key.length === 1 && l.key[0] === entry[0])
      if (at !== undefined) texts.splice(at.index, at.length, entryLine(entry), ...Array<string>(at.length - 1).fill(""))
      else {
        const last = own[own.length - 1]
        const index = last === undefined ? region.start + 1 : last.index + last.length
        const previous = texts[index - 1]!
        texts[index - 1] = (previous === "" || previous.endsWith("\n") ? previous : previous + newline) + entryLine(entry)
      }
    }
    return Either.right(texts.join(""))
  })

/** The `key = value` lines of the table itself (not its sub-tables), with how many lines each value takes. */
const ownKeyLines = (lines: ReadonlyArray<TomlLine>, region: { start: number; end: number }) => {
  const result: Array<{ index: number; length: number; key: ReadonlyArray<string> }> = []
  for (let i = region.start + 1; i < region.end && lines[i]!.header === undefined; i++) {
    const key = lines[i]!.key
    if (key === undefined) continue
    let length = 1
    while (i + length < region.end && lines[i + length]!.continues) length++
    result.push({ index: i, length, key })
  }
  return result
}

/** The text without the table at `path` (and its sub-tables), and without the blank line that set it apart. */
export const withoutTable = (text: string, path: ReadonlyArray<string>): Either.Either<string, string> =>
  Either.map(scanToml(text), (lines) => {
    const region = regionOf(lines, path)
    return region === undefined ? text : cutBlock(lines.map((l) => l.text), region)
  })

/** A TOML basic string: JSON's escapes are TOML's, plus DEL, which TOML wants escaped too. */
export const tomlString = (value: string): string => JSON.stringify(value).replace(/\u007f/g, "\\u007F")

export const tomlStringArray = (values: ReadonlyArray<string>): string => `[${values.map(tomlString).join(", ")}]`

const tomlKey = (key: string): string => (/^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key))

const startsWith = (path: ReadonlyArray<string>, prefix: ReadonlyArray<string>): boolean =>
  prefix.length <= path.length && prefix.every((key, i) => path[i] === key)

/** Lines [start, end) of the table and its sub-tables, without the blank and comment lines that lead into the next table. */
const regionOf = (lines: ReadonlyArray<TomlLine>, path: ReadonlyArray<string>): { start: number; end: number } | undefined => {
  const start = lines.findIndex((l) => l.header !== undefined && !l.header.array && l.header.path.length === path.length && startsWith(l.header.path, path))
  if (start < 0) return undefined
  let end = start + 1
  while (end < lines.length && !(lines[end]!.header !== undefined && !startsWith(lines[end]!.header!.path, path))) end++
  while (end > start + 1 && (isBlank(lines[end - 1]!.text) || isComment(lines[end - 1]!.text))) end--
  return { start, end }
}

/**
 * Where the same table is defined in a form this editor does not rewrite (dotted keys, an
 * inline table); adding a header next to it would make the file invalid, so it is refused.
 */
const definedElsewhere = (lines: ReadonlyArray<TomlLine>, path: ReadonlyArray<string>): string | undefined => {
  for (const line of lines) {
    if (line.key === undefined) continue
    const full = [...line.table, ...line.key]
    const overlaps = startsWith(full, path) || (startsWith(path, full) && full.length > line.table.length)
    if (overlaps && !startsWith(line.table, path)) {
      return `"${full.join(".")}" is set with a dotted key or an inline table; move it into a [${path.join(".")}] table or remove it`
    }
  }
  return undefined
}

const isComment = (line: string): boolean => line.trim().startsWith("#")
