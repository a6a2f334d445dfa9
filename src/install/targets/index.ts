/** Every agent `mem install` knows, by the name typed on the command line. */
import type { Target } from "../target.js"
import { claudeCode } from "./claude-code.js"
import { codex } from "./codex.js"
import { cursor, gemini, opencode, windsurf } from "./mcp-only.js"

export const TARGETS: ReadonlyArray<Target> = [claudeCode, codex, cursor, windsurf, opencode, gemini]
