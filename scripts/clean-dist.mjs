// Removes dist/ before a build: tsc never deletes the output of a source file that moved or was
// removed, and a stale module there would still load for whatever imports its old path.
import { rmSync } from "node:fs"

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true })
