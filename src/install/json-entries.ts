/**
 * One named entry inside nested objects (`mcpServers.memledger`, `mcp.memledger`): set it, or
 * take it out. Every other key keeps its value and its place; containers are created when
 * missing, and a container left empty by taking our entry out goes too, so uninstall gives back
 * the document install started from. Setting an entry that exists sets only our fields in it,
 * so keys a user added to it (an `env`, a timeout) survive a second install.
 */
import { Either } from "effect"
import { isJsonObject, type Json, type JsonChange, type JsonObject } from "./json-document.js"

export const withEntry =
  (containers: ReadonlyArray<string>, key: string, value: Json): JsonChange =>
  (document) =>
    setNested(document, containers, key, value, [])

export const withoutEntry =
  (containers: ReadonlyArray<string>, key: string): JsonChange =>
  (document) =>
    Either.right(removeNested(document, containers, key))

const setNested = (
  object: JsonObject,
  containers: ReadonlyArray<string>,
  key: string,
  value: Json,
  seen: ReadonlyArray<string>
): Either.Either<JsonObject, string> => {
  const [head, ...rest] = containers
  if (head === undefined) {
    const existing = Object.hasOwn(object, key) ? object[key] : undefined
    const merged = isJsonObject(existing) && isJsonObject(value) ? Object.entries(value).reduce((entry, [k, v]) => setKey(entry, k, v), existing) : value
    return Either.right(setKey(object, key, merged))
  }
  const child = Object.hasOwn(object, head) ? object[head] : {}
  const location = [...seen, head]
  if (!isJsonObject(child)) return Either.left(`"${location.join(".")}" is not an object`)
  return Either.map(setNested(child, rest, key, value, location), (next) => setKey(object, head, next))
}

const removeNested = (object: JsonObject, containers: ReadonlyArray<string>, key: string): JsonObject => {
  const [head, ...rest] = containers
  if (head === undefined) return Object.hasOwn(object, key) ? removeKey(object, key) : object
  const child = Object.hasOwn(object, head) ? object[head] : undefined
  if (!isJsonObject(child)) return object
  const next = removeNested(child, rest, key)
  if (next === child) return object
  return Object.keys(next).length === 0 ? removeKey(object, head) : setKey(object, head, next)
}

/** The object with `key` set: in its old place when present, else last. */
export const setKey = (object: JsonObject, key: string, value: Json): JsonObject =>
  Object.hasOwn(object, key)
    ? Object.fromEntries(Object.entries(object).map(([k, v]) => [k, k === key ? value : v]))
    : Object.fromEntries([...Object.entries(object), [key, value]])

export const removeKey = (object: JsonObject, key: string): JsonObject =>
  Object.fromEntries(Object.entries(object).filter(([k]) => k !== key))
