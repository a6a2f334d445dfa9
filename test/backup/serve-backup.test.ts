/**
 * `mem serve --backup DIR` takes a verified copy at start when DIR has none a day old, in a
 * process of its own while the server answers, and lists DIR among the store's backup folders
 * (so a purge finds its copies); with a fresh copy there, it says it waits until that copy turns
 * a day old.
 */
import { readdirSync } from "node:fs"
import { basename, join } from "node:path"
import { Either } from "effect"
import { afterEach, expect, it } from "vitest"
import { backupFolders } from "../../src/backup/backup-folders.js"
import { mem, memAt, tempDir } from "../support/cli.js"
import { startServe, stopAllServers } from "../support/serve.js"

afterEach(stopAllServers)

const storeWithNote = () => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  expect(memAt(db)("add", "the build uses Node 20", "--global").code).toBe(0)
  return { dir, db }
}

const waitFor = async (match: () => RegExpExecArray | null, what: string): Promise<RegExpExecArray> => {
  for (const started = Date.now(); ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const found = match()
    if (found !== null) return found
    if (Date.now() - started > 60_000) throw new Error(`timed out waiting for ${what}`)
  }
}

it("takes a backup at start into a folder with none, while the server answers, and lists the folder", async () => {
  const { dir, db } = storeWithNote()
  const folder = join(dir, "daily")
  const server = await startServe(db, { args: ["--backup", folder] })
  expect(server.stderr()).toContain(`mem: backups to ${folder}: one now, then every 24 hours\nmem: serving http://`)
  expect((await server.call("GET", "/health")).status).toBe(200)
  const [, file] = await waitFor(() => /mem: backup: wrote (\S+) \(1 event, verified\)/.exec(server.stderr()), "the backup")
  expect(readdirSync(folder)).toEqual([basename(file!)])
  expect(mem(["--db", file!, "verify", "--json"]).json()).toMatchObject({ ok: true, events: 1 })
  expect(Either.getOrThrow(backupFolders(db))).toContain(folder)
  await server.stop()
})

it("waits for the newest copy in the folder to turn a day old", async () => {
  const { dir, db } = storeWithNote()
  const folder = join(dir, "daily")
  const copy = basename(memAt(db)("backup", folder, "--json").json().file as string)
  const [, y, mo, d, h, mi, s] = /(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(copy)!.map(Number)
  const next = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) + 86_400_000).toISOString()
  const server = await startServe(db, { args: ["--backup", folder] })
  expect(server.stderr()).toContain(`mem: backups to ${folder}: the next at ${next}, then every 24 hours`)
  await server.stop()
  expect(readdirSync(folder)).toEqual([copy])
})
