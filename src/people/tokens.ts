/**
 * People's tokens, whatever store keeps them: a token is 32 random bytes (base64url, after a
 * `mem_` prefix that says what it is), and a store keeps only its SHA-256. A token offered by a
 * client is compared with every kept hash in constant time, so how long the comparison takes
 * says nothing about which hash, or how much of one, it matched.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import type { Person } from "../domain/person.js"
import type { TokenRow } from "../store/tokens.js"

export const TOKEN_PREFIX = "mem_"

export const newToken = (): string => `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`

export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex")

/** The person whose token `token` is, among `rows`; undefined when it is none of them (or revoked). */
export const personOf = (token: string, rows: ReadonlyArray<TokenRow>): Person | undefined => {
  const offered = Buffer.from(hashToken(token), "hex")
  let found: TokenRow | undefined
  // Every row is compared, whether or not one matched already.
  for (const row of rows) {
    const kept = Buffer.from(row.hash, "hex")
    if (kept.length === offered.length && timingSafeEqual(kept, offered) && found === undefined) found = row
  }
  return found === undefined ? undefined : { name: found.name, admin: found.admin, agent: found.agent }
}
