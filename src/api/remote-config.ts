/**
 * Which server MEMLEDGER_URL names, with its token. Plain (no Effect): the hook entry decides
 * from it which of its bundles to load, the store's or the HTTP client's, before loading either.
 */
import { existsSync, readFileSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"
import type { RemoteConfig } from "./operations-remote.js"

/** Where a token for `mem serve` is kept when MEMLEDGER_TOKEN is not set. */
export const tokenFilePath = (): string => join(homedir(), ".memledger", "token")

/** The server MEMLEDGER_URL names, with its token (MEMLEDGER_TOKEN, else ~/.memledger/token); none if unset. */
export const remoteFromEnv = (env: NodeJS.ProcessEnv = process.env): RemoteConfig | undefined => {
  const url = env.MEMLEDGER_URL?.trim()
  if (!url) return undefined
  const token = env.MEMLEDGER_TOKEN?.trim() || tokenFromFile()
  return token ? { url, token } : { url }
}

const tokenFromFile = (): string | undefined => {
  const path = tokenFilePath()
  if (!existsSync(path)) return undefined
  try {
    return readFileSync(path, "utf8").trim() || undefined
  } catch {
    // An unreadable token file is as good as none: the server's 401 then says what to set.
    return undefined
  }
}
