/**
 * Who is calling, once the guard (guard.ts) has let a request through: the person whose token
 * the `Authorization: Bearer` header carries (docs/serve.md, "People and tokens"). The server's
 * own token (MEMLEDGER_TOKEN, the token file) is the admin person `owner`; any other token is
 * looked up among the store's, on every request, so one revoked is refused from the next request
 * on. A token is required when the server has one of its own, when it listens off loopback, or
 * once the store has held people's tokens while it runs (revoking the last one does not open it
 * again); without any of these a request may come without one, as from the store's own command
 * line. GET /health and the console's page and files are open.
 */
import type { Person } from "../../domain/person.js"
import { OWNER } from "../../domain/person.js"
import { isConsolePath } from "./console-assets.js"
import { errorBody } from "./json-error.js"
import type { Refusal } from "./guard.js"
import { tokenMatches, type TokenSource } from "./token.js"

export interface IdentityPolicy {
  /** The server's own token, when it has one. */
  readonly token: string | null
  /** Where that token came from, for the 401's advice. */
  readonly tokenSource?: TokenSource
  /** Listening off loopback: every request needs a token, whatever the store holds. */
  readonly offLoopback: boolean
  /** The store's people (services/people.ts), when the server serves a store. */
  readonly people?: PeopleCheck
}

export interface PeopleCheck {
  readonly verify: (token: string) => Promise<Person | undefined>
  readonly any: () => Promise<boolean>
}

export interface IdentifiedRequest {
  readonly method: string
  readonly path: string
  readonly header: (name: "authorization") => string | undefined
}

/** `person`: the caller, or undefined for one without a token where none is needed. */
export type Identified = { readonly person: Person | undefined } | { readonly refusal: Refusal }

/** Says who each request comes from, for one server: it remembers whether the store has held tokens. */
export const identifier = (policy: IdentityPolicy): ((request: IdentifiedRequest) => Promise<Identified>) => {
  let latched = false
  const required = async (): Promise<boolean> => {
    latched ||= policy.token !== null || policy.offLoopback || ((await policy.people?.any()) ?? false)
    return latched
  }
  return (request) => identify(policy, request, required)
}

const identify = async (policy: IdentityPolicy, request: IdentifiedRequest, required: () => Promise<boolean>): Promise<Identified> => {
  if (isPublic(request)) return { person: undefined }
  const bearer = bearerOf(request.header("authorization"))
  if (bearer !== undefined) {
    if (policy.token !== null && tokenMatches(policy.token, bearer)) return { person: OWNER }
    const person = await policy.people?.verify(bearer)
    if (person !== undefined) return { person }
  }
  if (!(await required())) return { person: undefined }
  return {
    refusal: unauthorized(
      bearer === undefined
        ? `this server needs 'Authorization: Bearer <token>' (${tokenOrigin(policy)})`
        : `this token is not one of this server's: unknown, or revoked (${tokenOrigin(policy)})`
    )
  }
}

/**
 * Open without a token: /health, so that monitors and clients can see the server is up, and the
 * console's page and files, which hold no data (the page asks for the token before any call).
 */
const isPublic = (request: IdentifiedRequest) =>
  (request.method === "GET" || request.method === "HEAD") && (request.path === "/health" || isConsolePath(request.path))

const bearerOf = (authorization: string | undefined): string | undefined => /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1]

/** Names the source, not the file's path: the answer goes to clients who have no token yet. */
const tokenOrigin = (policy: IdentityPolicy): string => {
  const people = "a token 'mem token add' made for you"
  switch (policy.tokenSource) {
    case "env":
      return `the MEMLEDGER_TOKEN it was started with, or ${people}`
    case "file":
    case "created":
      return `the token in the server's token file, ~/.memledger/token of the account running it, or ${people}`
    default:
      return policy.token === null ? people : `the token it was started with, or ${people}`
  }
}

const unauthorized = (message: string): Refusal => ({
  body: errorBody(401, "Unauthorized", message),
  headers: { "www-authenticate": 'Bearer realm="memledger"' }
})
