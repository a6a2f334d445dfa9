/**
 * Protects what docs/privacy.md promises about secrets: each kind it names is replaced by a
 * placeholder naming the kind, keeping the readable part around it, and ordinary engineering
 * text (prose, paths, URLs, ids, hashes, identifiers) passes through unchanged.
 */
import { describe, expect, it } from "vitest"
import { redactSecrets } from "../../src/privacy/redact-secrets.js"
import { SECRET_KINDS, placeholder } from "../../src/privacy/vocabulary.js"
import { BASE62, example } from "./fake-secrets.js"

const redacted = (text: string) => redactSecrets(text)

describe("every kind of secret", () => {
  it.each(SECRET_KINDS.map((kind) => [kind]))("%s is replaced, and only the secret part is", (kind) => {
    const secret = example(kind)
    const { text, kinds } = redacted(`Before. ${secret.text} After.`)
    expect(text).not.toContain(secret.sensitive)
    expect(text).toContain(placeholder(kind))
    expect(text.startsWith("Before. ")).toBe(true)
    expect(text.endsWith(" After.")).toBe(true)
    expect(kinds).toEqual([kind])
  })
})

describe("what stays readable around a secret", () => {
  it("keeps the user and host of a URL, and drops its password", () => {
    expect(redacted("psql postgres://app:s3cr3t-Pa55@db.internal:5432/app").text).toBe(
      "psql postgres://app:[redacted: url password]@db.internal:5432/app"
    )
    expect(redacted("redis://:hunter22@localhost:6379/0").text).toBe("redis://:[redacted: url password]@localhost:6379/0")
  })

  it("keeps the word Bearer and the header name", () => {
    const token = "tok_" + BASE62.slice(0, 30)
    expect(redacted(`curl -H "Authorization: Bearer ${token}" https://api.example.com`).text).toBe(
      'curl -H "Authorization: Bearer [redacted: bearer token]" https://api.example.com'
    )
  })

  it("reports a JWT sent as a bearer token as a JWT, once", () => {
    const jwt = example("jwt").text
    expect(redacted(`Authorization: Bearer ${jwt}`)).toEqual({ text: "Authorization: Bearer [redacted: jwt]", kinds: ["jwt"] })
  })

  it("keeps the name of an assigned secret and its quotes", () => {
    expect(redacted("set DB_PASSWORD=hunter2 in .env").text).toBe("set DB_PASSWORD=[redacted: password] in .env")
    expect(redacted('{"apiKey": "abc123xyz789", "region": "eu-west-1"}').text).toBe(
      '{"apiKey": "[redacted: secret]", "region": "eu-west-1"}'
    )
    expect(redacted("GET /callback?code=7&access_token=ya29abc&state=x").text).toBe(
      "GET /callback?code=7&access_token=[redacted: token]&state=x"
    )
    expect(redacted("password: hunter2").text).toBe("password: [redacted: password]")
  })

  it("redacts an unclosed private key block to the end of the text", () => {
    const key = example("private key").text
    const truncated = key.slice(0, key.indexOf("-----END"))
    expect(redacted(`my key:\n${truncated}`).text).toBe("my key:\n[redacted: private key]")
  })

  it("keeps the words of a URL and drops only its random segment", () => {
    const id = "1aBcD3fGhIjKlMnOpQrStUvWxYz0123456789"
    expect(redacted(`https://docs.google.com/document/d/${id}/edit`).text).toBe(
      "https://docs.google.com/document/d/[redacted: high-entropy string]/edit"
    )
  })

  it("drops every piece of a base64 secret split by slashes, as one secret", () => {
    const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz4Lm9Qw2Tq8Vb"
    expect(redacted(`the key is ${secret} here`)).toEqual({ text: "the key is [redacted: high-entropy string] here", kinds: ["high-entropy string"] })
  })
})

describe("text that is not a secret", () => {
  it.each([
    ["prose", "Run the unit tests with pnpm test before every push; the staging database resets at 02:00 UTC."],
    ["a git SHA and a short SHA", "The regression came in at 3f6741e0a1b2c3d4e5f60718293a4b5c6d7e8f90 (3f6741e)."],
    ["a sha256 digest", "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"],
    ["a UUID", "The tenant id is 550e8400-e29b-41d4-a716-446655440000."],
    ["paths", "Edit src/adapters/cli/commands/store-admin.ts, not /usr/local/lib/node_modules/typescript/lib/typescript.js or C:\\Users\\me\\app"],
    ["URLs without credentials", "See https://github.com/acme/app/pull/123 and http://localhost:3000/api/v1/users?id=42&sort=desc"],
    ["an ssh remote", "git@github.com:acme/app.git is the remote"],
    ["an email address", "Mail ops@example.com about it"],
    ["long identifiers", "HTTP2ServerPushConfigurationForCDNv3Edge calls makeProtocolWithHttpAppWebsocket and GetObjectByHeapObjectIdReturnType"],
    ["snake and kebab case", "NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS and x86_64-unknown-linux-gnu-toolchain-v1_2_3 and gpt-4o-mini-transcribe-2025-03-20"],
    ["a word after sk-", "sk-learn-compatible-estimators are fine"],
    ["Bearer in prose", "Bearer authentication-scheme-for-internal-apis is documented"],
    ["a password rule in prose", "password: must be at least twelve characters"],
    ["references to where a secret lives", "password=$DB_PASSWORD token: ${{ secrets.NPM_TOKEN }} api_key=<your-key> secret=%APP_SECRET% apiKey: process.env.API_KEY"],
    ["a path to a credentials file", "GOOGLE_APPLICATION_CREDENTIALS=/etc/gcp/key.json"],
    ["booleans and placeholders", "secret: true, token=null, password=******"],
    ["code comparing a token", "if (token == null) return; const max_tokens: 4096; tokenizer: cl100k"],
    ["a field declaration", "password: z.string().min(12)"],
    ["repetitive filler", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1b and 0101010101010101010101010101010101Ab"],
    ["version strings", "node v20.19.43, typescript 5.9.3, sqlite 3.53.2"]
  ])("%s survives unchanged", (_label, text) => {
    expect(redacted(text)).toEqual({ text, kinds: [] })
  })
})
