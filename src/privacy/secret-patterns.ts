/**
 * Secrets recognised by their shape: provider key formats, tokens, key blocks and credentials
 * in URLs. Each pattern says which part of the match is secret (`secret`, a capture group
 * index; the whole match when absent), so the redactor keeps what is useful to read ("Bearer",
 * the user and host of a URL) and replaces only the secret itself.
 *
 * Order matters: specific shapes come first, so `sk-ant-…` is an Anthropic key and not an
 * OpenAI one, and a JWT after `Bearer` is reported as a JWT.
 */
import type { SecretKind } from "./vocabulary.js"

export interface SecretPattern {
  readonly kind: SecretKind
  /** Global regular expression. */
  readonly pattern: RegExp
  /** The capture group holding the secret; the whole match when absent. */
  readonly secret?: number
  /** Refuses a match that only looks like the shape (a hyphenated word after `sk-`). */
  readonly accept?: (secret: string) => boolean
}

/** Not glued to the word before it. */
const START = String.raw`(?<![A-Za-z0-9_-])`
/** Not continued by more token characters. */
const END = String.raw`(?![A-Za-z0-9_-])`

const re = (source: string, flags = "g") => new RegExp(source, flags)

/**
 * A random body has a digit, or both letter cases. `sk-learn-compatible-estimators` has
 * neither; a random base62 body of 20 characters lacks both with odds of about 1 in 10^7.
 */
export const looksRandom = (body: string): boolean => /[0-9]/.test(body) || (/[a-z]/.test(body) && /[A-Z]/.test(body))

export const SECRET_PATTERNS: ReadonlyArray<SecretPattern> = [
  {
    kind: "private key",
    // An unclosed block (a truncated paste) is redacted to the end of the text.
    pattern: re(String.raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)`)
  },
  { kind: "jwt", pattern: re(String.raw`${START}eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*${END}`) },
  { kind: "anthropic key", pattern: re(String.raw`${START}sk-ant-[A-Za-z0-9_-]{20,}${END}`), accept: looksRandom },
  {
    kind: "openai key",
    pattern: re(String.raw`${START}sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}${END}`),
    accept: (key) => looksRandom(key.replace(/^sk-(?:proj-|svcacct-|admin-)?/, ""))
  },
  { kind: "aws access key id", pattern: re(String.raw`${START}(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}${END}`) },
  {
    kind: "github token",
    pattern: re(String.raw`${START}(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})${END}`)
  },
  { kind: "gitlab token", pattern: re(String.raw`${START}glpat-[A-Za-z0-9_-]{20,}${END}`) },
  { kind: "slack token", pattern: re(String.raw`${START}xox[abeoprs]-[A-Za-z0-9-]{10,}${END}`), accept: looksRandom },
  { kind: "google api key", pattern: re(String.raw`${START}AIza[0-9A-Za-z_-]{35}${END}`) },
  { kind: "stripe key", pattern: re(String.raw`${START}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}${END}`) },
  { kind: "npm token", pattern: re(String.raw`${START}npm_[A-Za-z0-9]{36}${END}`) },
  { kind: "hugging face token", pattern: re(String.raw`${START}hf_[A-Za-z0-9]{30,}${END}`), accept: looksRandom },
  {
    kind: "url password",
    // scheme://user:password@host: the user and host stay readable, the password goes.
    pattern: re(String.raw`\b[a-z][a-z0-9+.-]*://[^\s:/?#@]*:([^\s/?#@]+)@`, "gi"),
    secret: 1
  },
  {
    kind: "bearer token",
    pattern: re(String.raw`\bBearer\s+([A-Za-z0-9._~+/-]{16,}=*)(?![A-Za-z0-9._~+/=-])`, "gi"),
    secret: 1,
    accept: looksRandom
  },
  {
    kind: "basic auth",
    // base64 of user:password in an Authorization header.
    pattern: re(String.raw`\bAuthorization:\s*Basic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])`, "gi"),
    secret: 1
  }
]

/**
 * Found in every text a pattern above matches: each shape's fixed prefix or keyword (`eyJ`,
 * `sk-` at a word's start, `://`, `Bearer` in any case, …). Not only in those: it only rules
 * texts out, so it must grow with every pattern added (test/privacy/scan-shortcuts.property.test.ts).
 */
export const MAY_HOLD_A_SHAPE =
  /-----BEGIN |eyJ|(?<![A-Za-z0-9_-])sk-|A(?:KIA|SIA|BIA|CCA)|gh[pousr]_|github_pat_|glpat-|xox[abeoprs]-|AIza|k_(?:live|test)_|npm_|hf_|:\/\/|[Bb][Ee][Aa][Rr][Ee][Rr]|[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz][Aa][Tt][Ii][Oo][Nn]/
