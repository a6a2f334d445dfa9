/**
 * A project's identity: its normalised git remote, so every clone on every
 * machine shares it (`github.com/acme/app` from `git@github.com:acme/app.git` or
 * `https://github.com/acme/app`); a folder without a remote falls back to its absolute path.
 * Reads .git/config directly: spawning git would cost more than the rest of a CLI call.
 */
import { existsSync, readFileSync, statSync } from "node:fs"
import { dirname, join, resolve } from "node:path"

/**
 * `git@host:owner/repo.git`, `ssh://git@host:22/owner/repo`, `https://user@host/owner/repo/` →
 * `host/owner/repo`. A remote may carry credentials (`https://user:TOKEN@host/...`, a token in
 * its query): only the host and the path are kept, so no secret becomes part of a project's name.
 */
export const normaliseRemote = (url: string): string => {
  // A query or a fragment names no repository, and may carry a token.
  let s = url.trim().replace(/[?#].*$/, "")
  // Credentials end at the last @ before the path: a password may itself hold an @.
  const scp = /^[^/]*@([^:/@]+):(?!\/)(.+)$/.exec(s)
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) s = `${scp[1]}/${scp[2]}`
  else {
    s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
    s = s.replace(/^[^/]*@/, "")
    s = s.replace(/^([^/:]+):\d+(?=\/)/, "$1")
  }
  return s
    .replace(/\.git\/?$/i, "")
    .replace(/\/+$/, "")
    .replace(/^([^/]+)/, (host) => host.toLowerCase())
}

/** The project for a working folder: its repository's remote, else the repository root, else the folder. */
export const detectProject = (cwd: string): string => {
  const root = findRepositoryRoot(resolve(cwd))
  if (root === undefined) return resolve(cwd)
  const remote = readRemote(root)
  return remote === undefined ? root : normaliseRemote(remote)
}

const findRepositoryRoot = (start: string): string | undefined => {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir
    if (dirname(dir) === dir) return undefined
  }
}

/** The `origin` remote's url, else the first remote's; worktrees point at their common git dir. */
const readRemote = (root: string): string | undefined => {
  const config = readConfig(gitDir(root))
  if (config === undefined) return undefined
  const remotes = [...config.matchAll(/\[remote "([^"]+)"\]([^[]*)/g)].map((m) => ({
    name: m[1],
    url: /^\s*url\s*=\s*(.+?)\s*$/m.exec(m[2] ?? "")?.[1]
  }))
  const chosen = remotes.find((r) => r.name === "origin" && r.url) ?? remotes.find((r) => r.url)
  return chosen?.url
}

const gitDir = (root: string): string => {
  const dotGit = join(root, ".git")
  if (statSync(dotGit).isDirectory()) return dotGit
  const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim()
  if (pointer === undefined) return dotGit
  const dir = resolve(root, pointer)
  const common = join(dir, "commondir")
  return existsSync(common) ? resolve(dir, readFileSync(common, "utf8").trim()) : dir
}

const readConfig = (dir: string): string | undefined => {
  const file = join(dir, "config")
  return existsSync(file) ? readFileSync(file, "utf8") : undefined
}
