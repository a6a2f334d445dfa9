/**
 * Makes every REST error answer `{error, message, status}`. The handlers already do for domain
 * errors; @effect/platform itself answers bad input in other shapes: a schema failure as
 * `{issues, message}` (its HttpApiDecodeError, whose message is the whole schema), malformed
 * JSON and an unknown route with an empty body, a defect with an empty 500. Those are rewritten
 * here, the schema issues into one readable line that names the field, under the tag the CLI
 * and the SDK give the same mistake (decode-input.ts: InvalidContent, InvalidId, ...).
 */
import { inputErrorOf, type InputIssue } from "../../api/decode-input.js"
import { statusOf } from "../../api/error-status.js"
import { errorBody, errorResponse, internalErrorBody, notJsonBody, type ErrorBody } from "./json-error.js"

export interface RequestLine {
  readonly method: string
  readonly path: string
}

/** Any issue message longer than this is cut: it may quote the caller's (huge) value back. */
const MAX_ISSUE_LENGTH = 200
const MAX_ISSUES = 3

/** `input` is the request's parsed JSON body, if any: where a failing field's value is looked up. */
export const normaliseErrorResponse = async (response: Response, request: RequestLine, logError: (line: string) => void, input?: unknown): Promise<Response> => {
  if (response.status < 400) return response
  const text = await response.text()
  const body = rewrite(response.status, parseJson(text), request, input)
  if (body.status >= 500) logError(`${request.method} ${request.path} answered ${response.status}: ${text.slice(0, 500) || "(no body)"}`)
  const headers: Record<string, string> = {}
  for (const [name, value] of response.headers) if (name !== "content-length" && name !== "content-type") headers[name] = value
  return errorResponse(body, headers)
}

/**
 * A schema failure as an error body: the domain's tag and status for the first issue; an
 * `InvalidInput` keeps the REST message, which names up to three fields.
 */
export const decodeFailureBody = (issues: ReadonlyArray<unknown>, input: unknown): ErrorBody => {
  const error = inputErrorOf(issues.filter(isInputIssue), input)
  return error._tag === "InvalidInput" ? errorBody(400, "InvalidInput", describeIssues(issues)) : errorBody(statusOf(error._tag), error._tag, error.message)
}

const rewrite = (status: number, body: unknown, request: RequestLine, input: unknown): ErrorBody => {
  if (isRecord(body) && typeof body.error === "string" && typeof body.message === "string") return errorBody(status, body.error, body.message)
  if (isRecord(body) && Array.isArray(body.issues)) return decodeFailureBody(body.issues, input)
  if (status >= 500) return internalErrorBody()
  switch (status) {
    case 400:
      return notJsonBody()
    case 404:
      return errorBody(404, "NotFound", `there is no endpoint ${request.method} ${request.path}; the endpoints are listed at /docs and /openapi.json`)
    case 405:
      return errorBody(405, "MethodNotAllowed", `${request.method} is not allowed on ${request.path}`)
    case 413:
      return errorBody(413, "PayloadTooLarge", "the request body is too large")
    default:
      return errorBody(status, "HttpError", `the request failed with status ${status}`)
  }
}

interface Issue {
  readonly _tag?: unknown
  readonly path?: unknown
  readonly message?: unknown
}

/**
 * "content: Expected string, actual 5; missing field 'query'". One issue per field: an
 * optional field reports the same failure twice (as the value and as `undefined`).
 */
export const describeIssues = (issues: ReadonlyArray<unknown>): string => {
  const byField = new Map<string, string>()
  for (const raw of issues) {
    const issue = (isRecord(raw) ? raw : {}) as Issue
    const path = Array.isArray(issue.path) ? issue.path.map(String) : []
    const field = path.join(".")
    if (byField.has(field)) continue
    byField.set(field, describeIssue(field, issue))
  }
  const lines = [...byField.values()]
  const shown = lines.slice(0, MAX_ISSUES).join("; ")
  return lines.length > MAX_ISSUES ? `${shown}; and ${lines.length - MAX_ISSUES} more` : shown || "the request does not match what this endpoint takes"
}

const describeIssue = (field: string, issue: Issue): string => {
  // At the top level the message is the endpoint's whole schema: say what matters instead.
  if (field === "") return "the request body must be a JSON object with the fields this endpoint takes (see /docs)"
  if (issue._tag === "Missing") return `missing field '${field}'`
  const message = typeof issue.message === "string" ? issue.message : "is not valid"
  return `'${field}': ${message.length > MAX_ISSUE_LENGTH ? `${message.slice(0, MAX_ISSUE_LENGTH)}…` : message}`
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const isInputIssue = (issue: unknown): issue is InputIssue => isRecord(issue) && Array.isArray(issue.path) && typeof issue.message === "string"

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)
