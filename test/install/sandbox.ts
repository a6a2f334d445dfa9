/** A temporary HOME and project folder for running `mem install` as a real process. */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { mem, tempDir, type MemRun } from "../support/cli.js"

export interface Sandbox {
  readonly home: string
  readonly project: string
  /** `~/x` is under the home, `./x` under the project. */
  readonly path: (where: string) => string
  readonly run: (args: ReadonlyArray<string>, env?: Record<string, string>) => MemRun
  readonly write: (files: Readonly<Record<string, string>>) => void
  readonly read: (where: string) => string
  /** Every file under home and project with its content, and every empty folder. */
  readonly snapshot: () => Record<string, string>
}

export const sandbox = (): Sandbox => {
  const home = tempDir("memledger-home-")
  const project = tempDir("memledger-project-")
  const path = (where: string) => (where.startsWith("~/") ? join(home, where.slice(2)) : join(project, where.replace(/^\.\//, "")))
  return {
    home,
    project,
    path,
    // Agents' own variables are cleared so the temp HOME decides every path.
    run: (args, env = {}) => mem(args, { cwd: project, env: { HOME: home, CODEX_HOME: "", XDG_CONFIG_HOME: "", ...env } }),
    write: (files) => {
      for (const [where, content] of Object.entries(files)) {
        mkdirSync(dirname(path(where)), { recursive: true })
        writeFileSync(path(where), content)
      }
    },
    read: (where) => readFileSync(path(where), "utf8"),
    snapshot: () => ({ ...tree(home, "~/"), ...tree(project, "./") })
  }
}

const tree = (root: string, prefix: string): Record<string, string> => {
  const files: Record<string, string> = {}
  const walk = (dir: string) => {
    const entries = readdirSync(dir)
    if (entries.length === 0 && dir !== root) files[`${prefix}${relative(root, dir)}/`] = "(empty folder)"
    for (const entry of entries) {
      const full = join(dir, entry)
      if (statSync(full).isDirectory()) walk(full)
      else files[`${prefix}${relative(root, full)}`] = readFileSync(full, "utf8")
    }
  }
  if (existsSync(root)) walk(root)
  return files
}

/** Runs a shell command line the way an agent runs a hook. */
export const shell = (commandLine: string) => spawnSync("sh", ["-c", commandLine], { encoding: "utf8" })
