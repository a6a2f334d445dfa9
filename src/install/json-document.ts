/**
 * JSON settings files, edited as data and written back in the file's own style (indent, line
 * endings, final newline), so the lines memledger did not change stay as they were. A file that
 * is not a JSON object is refused, never rewritten.
 */
import { isDeepStrictEqual } from "node:util"
import { Either } from "effect"
import { MalformedConfig } from "./errors.js"
import type { FileEdit } from "./file-edit.js"

export type Json = null | boolean | number | string | ReadonlyArray<Json> | JsonObject
export interface JsonObject {
  readonly [key: string]: Json
}

/** A change to a settings object; Left is why the object has a shape memledger will not edit. */
export type JsonChange = (document: JsonObject) => Either.Either<JsonObject, string>

/** A JSON file edited by `install` and `uninstall`; a file left as `{}` by uninstall is removed. */
export const jsonEdit = (path: string, change: { readonly install: JsonChange; readonly uninstall: JsonChange }): FileEdit => ({
  path,
  install: (current) =>
    Either.flatMap(parseSettings(path, current ?? ""), ({ document, style }) =>
      Either.map(Either.mapLeft(change.install(document), (reason) => new MalformedConfig({ path, reason })), (next) =>
        current !== null && isDeepStrictEqual(next, document) ? current : formatSettings(next, style)
      )
    ),
  uninstall: (current) =>
    current === null
      ? Either.right(null)
      : Either.flatMap(parseSettings(path, current), ({ document, style }) =>
          Either.map(Either.mapLeft(change.uninstall(document), (reason) => new MalformedConfig({ path, reason })), (next) =>
            isDeepStrictEqual(next, document) ? current : Object.keys(next).length === 0 ? null : formatSettings(next, style)
          )
        )
})

export interface Style {
  /** "" writes the object on one line, as a minified file was. */
  readonly indent: string
  readonly newline: "\n" | "\r\n"
  readonly finalNewline: boolean
  readonly byteOrderMark: boolean
}

const BOM = "\uFEFF"

/** The object in a settings file (an empty or blank file is `{}`) and how the file is written. */
export const parseSettings = (path: string, text: string): Either.Either<{ document: JsonObject; style: Style }, MalformedConfig> => {
  const byteOrderMark = text.startsWith(BOM)
  const body = byteOrderMark ? text.slice(BOM.length) : text
  const style = styleOf(body, byteOrderMark)
  if (body.trim() === "") return Either.right({ document: {}, style })
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch (error) {
    return Either.left(new MalformedConfig({ path, reason: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }))
  }
  return isJsonObject(parsed)
    ? Either.right({ document: parsed, style })
    : Either.left(new MalformedConfig({ path, reason: "the file holds JSON, but not an object" }))
}

export const formatSettings = (document: JsonObject, style: Style): string => {
  const text = JSON.stringify(document, null, style.indent)
  const lines = style.newline === "\r\n" ? text.replace(/\n/g, "\r\n") : text
  return `${style.byteOrderMark ? BOM : ""}${lines}${style.finalNewline ? style.newline : ""}`
}

const styleOf = (body: string, byteOrderMark: boolean): Style => {
  const trimmed = body.trim()
  const oneLine = trimmed.length > 2 && !trimmed.includes("\n")
  return {
    indent: oneLine ? "" : (/^([ \t]+)\S/m.exec(body)?.[1] ?? "  "),
    newline: body.includes("\r\n") ? "\r\n" : "\n",
    finalNewline: trimmed === "" || /\n$/.test(body),
    byteOrderMark
  }
}

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)
