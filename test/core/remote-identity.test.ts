/**
 * Protects a project's name from a git remote's credentials: a remote may carry a user and
 * password or a token (`https://user:TOKEN@host/...`), which would otherwise become part of
 * every memory's project. The name keeps the host and the path, and nothing else.
 */
import { describe, expect, it } from "vitest"
import { normaliseRemote } from "../../src/project/identity.js"

describe("normaliseRemote", () => {
  it.each([
    ["https://user:ghp_xxx@github.com/acme/app.git", "github.com/acme/app"],
    ["https://x-access-token:ghs_abc@github.com/acme/app", "github.com/acme/app"],
    ["https://oauth2:glpat-abc@gitlab.com/acme/app.git", "gitlab.com/acme/app"],
    ["https://ghp_xxx@github.com/acme/app.git", "github.com/acme/app"],
    ["https://user:p@ss@github.com/acme/app.git", "github.com/acme/app"],
    ["https://user:ghp_xxx@github.com:443/acme/app.git?access_token=abc#main", "github.com/acme/app"],
    ["ssh://git:secret@git.example.com:22/acme/app.git", "git.example.com/acme/app"],
    ["git@github.com:acme/app.git", "github.com/acme/app"],
    ["https://github.com/acme/app/", "github.com/acme/app"]
  ])("%s is %s", (remote, project) => {
    expect(normaliseRemote(remote)).toBe(project)
  })
})
