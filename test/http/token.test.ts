/** Where the bearer token comes from, and the token files that are refused. */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { resolveToken, tokenMatches } from "../../src/adapters/http/token.js"
import { tempDir } from "../support/cli.js"

const home = () => tempDir("memledger-home-")
const value = <A, E>(either: Either.Either<A, E>): A => {
  if (Either.isLeft(either)) throw new Error(`expected a token, got ${JSON.stringify(either.left)}`)
  return either.right
}
const refusal = <A, E extends { message: string }>(either: Either.Either<A, E>): string => {
  if (Either.isRight(either)) throw new Error(`expected a refusal, got ${JSON.stringify(either.right)}`)
  return either.left.message
}

describe("resolveToken", () => {
  it("takes MEMLEDGER_TOKEN for any bind, and none on loopback without it", () => {
    const env = { HOME: home(), MEMLEDGER_TOKEN: "from-the-environment-123" }
    expect(value(resolveToken({ loopback: true, create: false, env }))).toEqual({ token: "from-the-environment-123", source: "env" })
    expect(value(resolveToken({ loopback: false, create: false, env }))).toEqual({ token: "from-the-environment-123", source: "env" })
    expect(value(resolveToken({ loopback: true, create: false, env: { HOME: home() } }))).toEqual({ token: null, source: "none" })
    expect(refusal(resolveToken({ loopback: true, create: false, env: { HOME: home(), MEMLEDGER_TOKEN: "short" } }))).toMatch(/shorter than 16/)
  })

  it("refuses a network bind with no token unless asked to create one, then reuses it", () => {
    const env = { HOME: home() }
    expect(refusal(resolveToken({ loopback: false, create: false, env }))).toMatch(/set MEMLEDGER_TOKEN, or add --create-token/)
    const created = value(resolveToken({ loopback: false, create: true, env }))
    const file = join(env.HOME, ".memledger", "token")
    expect(created).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), source: "created", file })
    expect(readFileSync(file, "utf8").trim()).toBe(created.token)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(value(resolveToken({ loopback: false, create: true, env }))).toEqual({ token: created.token, source: "file", file })
    expect(value(resolveToken({ loopback: false, create: false, env }))).toEqual({ token: created.token, source: "file", file })
  })

  it("refuses a token file others can read or write, and one too short", () => {
    const env = { HOME: home() }
    const file = join(env.HOME, ".memledger", "token")
    mkdirSync(join(env.HOME, ".memledger"), { mode: 0o700 })
    writeFileSync(file, "long-enough-token-in-a-file\n", { mode: 0o600 })
    for (const mode of [0o640, 0o604, 0o620]) {
      chmodSync(file, mode)
      expect(refusal(resolveToken({ loopback: false, create: true, env }))).toContain(`chmod 600 ${file}`)
    }
    chmodSync(file, 0o600)
    writeFileSync(file, "tiny\n")
    expect(refusal(resolveToken({ loopback: false, create: false, env }))).toMatch(/shorter than 16/)
  })

  it("says why when the token file cannot be created", () => {
    const file = join(home(), "not-a-folder")
    writeFileSync(file, "")
    expect(refusal(resolveToken({ loopback: false, create: true, env: { HOME: file } }))).toMatch(/cannot (create|read) the token file/)
  })
})

describe("tokenMatches", () => {
  it("matches only the exact token, whatever the lengths", () => {
    expect(tokenMatches("abc-token-0123456789", "abc-token-0123456789")).toBe(true)
    expect(tokenMatches("abc-token-0123456789", "abc-token-012345678")).toBe(false)
    expect(tokenMatches("abc-token-0123456789", "")).toBe(false)
    expect(tokenMatches("abc-token-0123456789", "abc-token-0123456789 ")).toBe(false)
  })
})
