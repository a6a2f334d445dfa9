/**
 * The page at /docs: the OpenAPI document rendered for people, as plain HTML made on the
 * server. It needs no network at run time and runs no script (its CSP forbids any), unlike
 * Scalar, whose inline build is 3.4 MB of JavaScript that still fetches fonts from its CDN.
 */
import { OpenApi } from "@effect/platform"
import { CALLER_HEADERS, MemledgerApi } from "../../api/http-api.js"
import { VERSION } from "../../version.js"

type JsonSchema = Record<string, unknown>
interface Operation {
  readonly operationId?: string
  readonly description?: string
  readonly parameters?: ReadonlyArray<{ name: string; in: string; required?: boolean; schema?: JsonSchema; description?: string }>
  readonly requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
  readonly responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>
}

export const DOCS_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
} as const

let rendered: string | undefined

/** The page, rendered once per process from the same declaration the API serves. */
export const docsPage = (): string => (rendered ??= render(OpenApi.fromApi(MemledgerApi) as unknown as { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, JsonSchema> } }))

const render = (doc: { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, JsonSchema> } }): string => {
  const schemas = doc.components?.schemas ?? {}
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => renderOperation(method.toUpperCase(), path, op, schemas))
  )
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>memledger REST API</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{font:13px/1.4 ui-monospace,monospace}pre{background:#f5f5f5;padding:.5rem;overflow:auto}
h2{margin-top:2.5rem;border-top:1px solid #ddd;padding-top:1rem}table{border-collapse:collapse;margin:.5rem 0}
td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}.method{font-weight:bold}
</style></head><body>
<h1>memledger REST API <small>${esc(VERSION)}</small></h1>
<p>Every body is JSON. Errors answer <code>{"error": NAME, "message": TEXT, "status": CODE}</code>.
The machine-readable document is at <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<p>A server started with a token wants <code>Authorization: Bearer &lt;token&gt;</code> on every request but <code>GET /health</code>.
Writes are recorded under the caller named by the headers <code>${CALLER_HEADERS.origin}</code> (the conversation),
<code>${CALLER_HEADERS.agent}</code> (the client) and <code>${CALLER_HEADERS.project}</code> (the current project); a body's own <code>origin</code> wins.</p>
${operations.join("\n")}
</body></html>
`
}

const renderOperation = (method: string, path: string, op: Operation, schemas: Record<string, JsonSchema>): string => {
  const params = (op.parameters ?? []).map((p) => row(`${esc(p.name)} <small>(${esc(p.in)})</small>`, p.required === true, p.schema ?? {}, schemas, p.description))
  const body = op.requestBody?.content?.["application/json"]?.schema
  const bodyRows = body === undefined ? [] : fieldRows(resolve(body, schemas), schemas)
  const success = op.responses?.["200"]?.content?.["application/json"]?.schema
  return `<h2 id="${esc(op.operationId ?? `${method} ${path}`)}"><span class="method">${method}</span> <code>${esc(path)}</code></h2>
${op.description ? `<p>${esc(op.description)}</p>` : ""}${table("Parameters", params)}${table("Body (JSON)", bodyRows)}
${success === undefined ? "" : `<details><summary>Answer (200): ${esc(typeOf(success, schemas))}</summary><pre>${esc(JSON.stringify(success, null, 2))}</pre></details>`}`
}

const fieldRows = (schema: JsonSchema, schemas: Record<string, JsonSchema>): string[] => {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((schema.required ?? []) as string[])
  return Object.entries(properties).map(([name, field]) => row(esc(name), required.has(name), field, schemas, field.description as string | undefined))
}

const row = (name: string, required: boolean, schema: JsonSchema, schemas: Record<string, JsonSchema>, description?: string): string =>
  `<tr><td><code>${name}</code>${required ? " (required)" : ""}</td><td><code>${esc(typeOf(schema, schemas))}</code>${esc(limits(schema))}</td><td>${esc(description ?? "")}</td></tr>`

const table = (title: string, rows: string[]): string =>
  rows.length === 0 ? "" : `<p>${title}</p><table><tr><th>name</th><th>type</th><th>meaning</th></tr>${rows.join("")}</table>`

/** A short type: `string`, `"a" | "b"`, `integer`, `object[]`. */
const typeOf = (raw: JsonSchema, schemas: Record<string, JsonSchema>, depth = 0): string => {
  const schema = resolve(raw, schemas)
  if (depth > 3) return "…"
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ")
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map((s) => typeOf(s, schemas, depth + 1)).join(" | ")
  if (schema.type === "array") return `${typeOf((schema.items ?? {}) as JsonSchema, schemas, depth + 1)}[]`
  if (typeof schema.type === "string") return schema.type
  return "any"
}

const limits = (schema: JsonSchema): string => {
  const parts = [
    schema.minLength !== undefined && `${schema.minLength}+ chars`,
    schema.maxLength !== undefined && `at most ${schema.maxLength} chars`,
    schema.minimum !== undefined && schema.maximum !== undefined && `${schema.minimum} to ${schema.maximum}`
  ].filter(Boolean)
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`
}

/** Follows a `#/components/schemas/X` reference, keeping the referring schema's own fields. */
const resolve = (schema: JsonSchema, schemas: Record<string, JsonSchema>): JsonSchema => {
  const ref = schema.$ref
  if (typeof ref !== "string") return schema
  const { $ref: _, ...rest } = schema
  const target = schemas[ref.replace("#/components/schemas/", "")] ?? {}
  return { ...target, ...rest }
}

const esc = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)
