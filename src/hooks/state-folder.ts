/**
 * Where hooks keep what is not the log: each session's working state and `hooks.log`. They live
 * in a state folder (MEMLEDGER_STATE_DIR, else ~/.memledger/state), one subfolder per store,
 * named by a hash of where the store is (a file's absolute path, a server's URL). So the state
 * works for a store that is not a file, and two stores never share it.
 *
 * Before the state folder, session state was kept beside the store file, in `sessions/`: found
 * there on first use, it is moved into the store's folder once, and read from there after.
 */
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs"
import { homedir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { sha256Hex } from "../domain/sha256.js"

export const stateRoot = (env: NodeJS.ProcessEnv = process.env): string =>
  env.MEMLEDGER_STATE_DIR && env.MEMLEDGER_STATE_DIR.length > 0 ? env.MEMLEDGER_STATE_DIR : join(homedir(), ".memledger", "state")

/** A store that is a server (MEMLEDGER_URL), not a file. */
export const isStoreUrl = (store: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(store)

/** The state folder of one store: `store` is its file's path (as given) or its URL. */
export const storeStateFolder = (store: string, env: NodeJS.ProcessEnv = process.env): string =>
  join(stateRoot(env), `store-${sha256Hex(isStoreUrl(store) ? store : resolve(store)).slice(0, 16)}`)

/** The folder of session files for `store`, with any kept beside its file moved in first. */
export const sessionsFolder = (store: string, env: NodeJS.ProcessEnv = process.env): string => {
  const folder = join(storeStateFolder(store, env), "sessions")
  if (!isStoreUrl(store)) adoptSessionsBeside(store, folder)
  return folder
}

const adoptSessionsBeside = (storeFile: string, folder: string): void => {
  const beside = join(dirname(resolve(storeFile)), "sessions")
  if (!existsSync(beside) || existsSync(folder)) return
  try {
    mkdirSync(dirname(folder), { recursive: true, mode: 0o700 })
    try {
      renameSync(beside, folder)
    } catch {
      // Another file system: copy, then remove what was copied.
      cpSync(beside, folder, { recursive: true })
      rmSync(beside, { recursive: true, force: true })
    }
  } catch {
    // Left where it was: a session then starts afresh, which costs only its news marker.
  }
}
