/**
 * Secrets shaped like the real ones, built at run time from random bodies so that no
 * secret-looking literal sits in the repository. `sensitive` is the part that must never reach
 * the store; `text` is what a person would paste.
 */
import * as fc from "fast-check"
import type { SecretKind } from "../../src/privacy/vocabulary.js"

export const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
export const LOWER = "abcdefghijklmnopqrstuvwxyz"
export const DIGITS = "0123456789"
export const BASE62 = UPPER + LOWER + DIGITS
export const BASE64URL = BASE62 + "-_"

export interface FakeSecret {
  readonly kind: SecretKind
  readonly text: string
  readonly sensitive: string
}

/** A body of `length` characters of `alphabet`, uniform: keys are random by construction. */
export const body = (alphabet: string, minLength: number, maxLength = minLength): fc.Arbitrary<string> =>
  fc.noBias(fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength }))

const b64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString("base64url")
const randomBytes = (min: number, max: number) => fc.noBias(fc.uint8Array({ minLength: min, maxLength: max }))

/** The prefixes of the vendor key shapes the scan knows (src/privacy/secret-patterns.ts). */
const VENDOR_PREFIX = /^(?:eyJ|sk-|sk_|rk_|AKIA|ASIA|ABIA|ACCA|gh[pousr]_|github_pat_|glpat-|xox[abeoprs]-|AIza|npm_|hf_)/

const whole = (kind: SecretKind) => (text: string): FakeSecret => ({ kind, text, sensitive: text })

/** One arbitrary per kind the redactor names, each producing secrets in that kind's real format. */
export const FAKE_SECRETS: Record<SecretKind, fc.Arbitrary<FakeSecret>> = {
  "private key": fc
    .tuple(fc.constantFrom("RSA ", "EC ", "OPENSSH ", "DSA ", "ENCRYPTED ", ""), fc.array(randomBytes(48, 48), { minLength: 1, maxLength: 6 }))
    .map(([type, lines]) => {
      const base64 = lines.map((l) => Buffer.from(l).toString("base64"))
      return {
        kind: "private key",
        text: `-----BEGIN ${type}PRIVATE KEY-----\n${base64.join("\n")}\n-----END ${type}PRIVATE KEY-----`,
        sensitive: base64[0]!
      }
    }),
  jwt: fc
    .tuple(fc.record({ sub: body(DIGITS, 4, 12), name: fc.constantFrom("alice", "bob"), iat: fc.nat() }), randomBytes(32, 32))
    .map(([claims, signature]) => {
      const token = `${b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${b64url(JSON.stringify(claims))}.${b64url(signature)}`
      return { kind: "jwt", text: token, sensitive: token }
    }),
  "anthropic key": body(BASE64URL, 93).map((b) => whole("anthropic key")(`sk-ant-api03-${b}AA`)),
  "openai key": fc
    .tuple(fc.constantFrom("sk-", "sk-proj-", "sk-svcacct-"), body(BASE62, 48), body(BASE64URL, 0, 100))
    .map(([prefix, a, b]) => whole("openai key")(prefix + a + b)),
  "aws access key id": fc.tuple(fc.constantFrom("AKIA", "ASIA"), body(UPPER + DIGITS, 16)).map(([p, b]) => whole("aws access key id")(p + b)),
  "github token": fc.oneof(
    fc.tuple(fc.constantFrom("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), body(BASE62, 36)).map(([p, b]) => whole("github token")(p + b)),
    fc.tuple(body(BASE62, 22), body(BASE62, 59)).map(([a, b]) => whole("github token")(`github_pat_${a}_${b}`))
  ),
  "gitlab token": body(BASE64URL, 20).map((b) => whole("gitlab token")(`glpat-${b}`)),
  "slack token": fc
    .tuple(fc.constantFrom("xoxb", "xoxp", "xoxa", "xoxr"), body(DIGITS, 12), body(DIGITS, 13), body(BASE62, 24))
    .map(([p, a, b, c]) => whole("slack token")(`${p}-${a}-${b}-${c}`)),
  "google api key": body(BASE64URL, 35).map((b) => whole("google api key")(`AIza${b}`)),
  "stripe key": fc.tuple(fc.constantFrom("sk_live_", "rk_live_", "sk_test_"), body(BASE62, 24, 99)).map(([p, b]) => whole("stripe key")(p + b)),
  "npm token": body(BASE62, 36).map((b) => whole("npm token")(`npm_${b}`)),
  "hugging face token": body(BASE62, 34).map((b) => whole("hugging face token")(`hf_${b}`)),
  "url password": fc
    .tuple(fc.constantFrom("postgres", "mysql", "redis", "https", "amqp", "mongodb+srv"), fc.constantFrom("app", "admin", ""), body(BASE62 + "!$%^*~:.", 8, 24), fc.constantFrom("db.internal:5432/app", "localhost", "example.com/path"))
    .map(([scheme, user, password, host]) => ({ kind: "url password", text: `${scheme}://${user}:${password}@${host}`, sensitive: password })),
  "bearer token": body(BASE64URL + ".~", 20, 64).map((token) => ({ kind: "bearer token", text: `Authorization: Bearer ${token}`, sensitive: token })),
  "basic auth": fc
    .tuple(fc.constantFrom("alice", "deploy"), body(BASE62, 8, 20))
    .map(([user, password]) => {
      const encoded = Buffer.from(`${user}:${password}`).toString("base64")
      return { kind: "basic auth", text: `Authorization: Basic ${encoded}`, sensitive: encoded }
    }),
  password: fc
    .tuple(fc.constantFrom("password", "DB_PASSWORD", "passwd", "db.pwd", "adminPassword"), fc.constantFrom("=", ": ", " = ", ":"), body(BASE62 + "!#%^*", 7, 24), body(DIGITS, 1))
    .map(([name, separator, value, digit]) => ({ kind: "password", text: `${name}${separator}${value}${digit}`, sensitive: value + digit })),
  token: fc
    .tuple(fc.constantFrom("access_token", "GITHUB_TOKEN", "refreshToken", "token"), fc.constantFrom("=", ": "), body(BASE62, 12, 40), body(DIGITS, 1))
    .map(([name, separator, value, digit]) => ({ kind: "token", text: `${name}${separator}${value}${digit}`, sensitive: value + digit })),
  secret: fc
    .tuple(fc.constantFrom("client_secret", "API_KEY", "apiKey", "aws_secret_access_key", "secret"), body(BASE62 + "/+", 12, 40))
    .map(([name, value]) => ({ kind: "secret", text: `"${name}": "${value}"`, sensitive: value })),
  "high-entropy string": fc
    .oneof(body(BASE62, 32, 64), randomBytes(24, 48).map((b) => Buffer.from(b).toString("base64")), randomBytes(24, 48).map(b64url))
    // The documented shape: upper case, lower case and digits together (a random 32-character
    // base64 string lacks digits 4 times in 1,000; docs/privacy.md says such a one may survive).
    .filter((t) => /[0-9]/.test(t) && /[a-z]/.test(t) && /[A-Z]/.test(t))
    // One in a few hundred thousand random tokens begins like a vendor's key (`sk-…`, `AKIA…`);
    // the scan rightly names that one by its vendor, so it is not an anonymous string.
    .filter((t) => !t.split(/[+/]/).some((part) => VENDOR_PREFIX.test(part)))
    .map(whole("high-entropy string"))
}

/** One fixed example of each kind, for example-based tests. */
export const example = (kind: SecretKind, seed = 42): FakeSecret => fc.sample(FAKE_SECRETS[kind], { seed, numRuns: 1 })[0]!
