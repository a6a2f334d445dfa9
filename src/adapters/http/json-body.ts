/**
 * What the REST API accepts as a request body, checked before any route decodes it: JSON
 * only (the OpenAPI document lists application/json alone, and a form or text body would
 * otherwise be read by HttpApi in a shape no client meant), and nested no deeper than
 * `MAX_INPUT_DEPTH` (json-depth.ts), since the schema decoders recurse and a value nested
 * thousands deep would overflow the stack of whichever touched it first.
 */
import { Option } from "effect"
import { nestsDeeperThan, TOO_DEEP_MESSAGE } from "../../api/json-depth.js"
import { errorBody, type ErrorBody } from "./json-error.js"

/**
 * A body's content type is JSON when it is absent (curl -d without -H, as HttpApi assumes too)
 * or its media type is exactly application/json, parameters such as charset allowed.
 */
export const isJsonContentType = (contentType: string | undefined): boolean =>
  contentType === undefined || contentType.split(";")[0]!.trim().toLowerCase() === "application/json"

export const unsupportedMediaTypeBody = (contentType: string): ErrorBody =>
  errorBody(415, "UnsupportedMediaType", `request bodies must be JSON, not '${contentType.slice(0, 100)}'; send Content-Type: application/json`)

export const tooDeepBody = (): ErrorBody => errorBody(400, "InvalidInput", TOO_DEEP_MESSAGE)

/** The body as JSON, decoded as UTF-8 the way the Fetch standard does (a leading BOM dropped). */
export const parseJsonBody = (body: Buffer | undefined): Option.Option<unknown> => {
  const text = body === undefined ? "" : body.toString("utf8")
  try {
    return Option.some(JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text))
  } catch {
    return Option.none()
  }
}

/** True when the body parses as JSON nested too deep to decode; malformed JSON is left to the routes, which say so. */
export const isTooDeep = (body: Buffer | undefined): boolean => {
  const json = parseJsonBody(body)
  return Option.isSome(json) && nestsDeeperThan(json.value)
}
