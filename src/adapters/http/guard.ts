/**
 * The checks every request passes before it reaches a route, in this order:
 * 1. the Host header names this server (DNS-rebinding defence) -> else 421;
 * 2. no CORS: a browser's preflight (OPTIONS) -> 405, and an `Origin` other than the server's
 *    own -> 403, so a web page elsewhere can neither read nor send anything.
 * A pure function of the request's method, path and headers, so each rule is tested alone.
 * Then the bearer token says who is calling (identify.ts), or the request is refused 401.
 */
import type { AllowedHost } from "./bind-host.js"
import { errorBody, type ErrorBody } from "./json-error.js"

export interface GuardPolicy {
  /** Host names (URL form, no port) the server answers to at `port`; see bind-host.ts. */
  readonly hostNames: ReadonlySet<string>
  readonly port: number
  /** `--allow-host` names, each at any port or at the one it names. */
  readonly allowedHosts?: ReadonlyArray<AllowedHost>
}

export interface GuardedRequest {
  readonly method: string
  readonly path: string
  readonly header: (name: "host" | "origin") => string | undefined
}

export interface Refusal {
  readonly body: ErrorBody
  readonly headers?: Record<string, string>
}

export const checkRequest = (policy: GuardPolicy, request: GuardedRequest): Refusal | undefined => {
  const host = request.header("host")
  if (host === undefined || !namesThisServer(policy, parseHost(host))) {
    const named = host === undefined || host === "" ? "a request without a Host header" : `the host '${clip(host)}'`
    return refuse(421, "MisdirectedRequest", `this server does not answer to ${named}; address it by the name it was started with (DNS-rebinding defence)`)
  }
  if (request.method === "OPTIONS") {
    return refuse(405, "MethodNotAllowed", "this server does not take cross-origin (CORS) requests, so it answers no preflight", { allow: "GET, HEAD, POST, PATCH, DELETE" })
  }
  const origin = request.header("origin")
  if (origin !== undefined && !namesThisServer(policy, parseOrigin(origin))) {
    return refuse(403, "Forbidden", `requests from web pages on other origins ('${clip(origin)}') are refused`)
  }
  return undefined
}

interface Authority {
  readonly name: string
  readonly port: number
}

const namesThisServer = (policy: GuardPolicy, authority: Authority | undefined): boolean =>
  authority !== undefined &&
  ((authority.port === policy.port && policy.hostNames.has(authority.name)) ||
    (policy.allowedHosts ?? []).some((allowed) => allowed.name === authority.name && (allowed.port === undefined || allowed.port === authority.port)))

/** `name[:port]` or `[v6][:port]`; the port is 80 when absent, as HTTP says. */
const parseHost = (host: string): Authority | undefined => {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host.trim())
  if (match === null) return undefined
  return { name: match[1]!.toLowerCase(), port: match[2] === undefined ? 80 : Number(match[2]) }
}

/** A browser's Origin: scheme, host and port. `null` (a sandboxed or file page) names no server. */
const parseOrigin = (origin: string): Authority | undefined => {
  try {
    const url = new URL(origin)
    if (url.protocol !== "http:") return undefined
    return { name: url.hostname.toLowerCase(), port: url.port === "" ? 80 : Number(url.port) }
  } catch {
    return undefined
  }
}

const refuse = (status: number, error: string, message: string, headers?: Record<string, string>): Refusal =>
  headers === undefined ? { body: errorBody(status, error, message) } : { body: errorBody(status, error, message), headers }

/** Headers are the caller's text: quote only a little of it back. */
const clip = (text: string) => (text.length > 100 ? `${text.slice(0, 100)}…` : text)
