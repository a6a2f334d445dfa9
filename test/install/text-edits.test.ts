/**
 * Protects the text files memledger shares with the user (the AGENTS.md block) or owns outright
 * (slash commands, the skill): the user's text stays byte for byte, and a file memledger did not
 * write is never overwritten or removed.
 */
import { Either } from "effect"
import { describe, expect, test } from "vitest"
import { BLOCK_END, BLOCK_START, withBlock, withoutBlock } from "../../src/install/marked-block.js"
import { blockEdit, ownedFileEdit, OWNED_MARK } from "../../src/install/text-edits.js"

const AGENTS = "# Project rules\n\n- Run `npm test` before committing.\n"

describe("marked block", () => {
  const install = (text: string, body = "use memledger") => Either.getOrThrow(withBlock(text, body))

  test("goes after the user's text, set apart by a blank line, and comes out leaving it byte for byte", () => {
    const installed = install(AGENTS)
    expect(installed).toBe(`${AGENTS}\n${BLOCK_START}\nuse memledger\n${BLOCK_END}\n`)
    expect(Either.getOrThrow(withoutBlock(installed))).toBe(AGENTS)
  })

  test("is replaced in place, wherever the user moved it, and text after it stays", () => {
    const moved = `${BLOCK_START}\nold words\n${BLOCK_END}\n\n${AGENTS}`
    expect(install(moved)).toBe(`${BLOCK_START}\nuse memledger\n${BLOCK_END}\n\n${AGENTS}`)
    expect(install(install(moved))).toBe(install(moved))
  })

  test("refuses a start marker without an end marker, or an end without a start", () => {
    expect(Either.isLeft(withBlock(`${AGENTS}${BLOCK_START}\n`, "x"))).toBe(true)
    expect(Either.isLeft(withoutBlock(`${BLOCK_END}\n${AGENTS}`))).toBe(true)
  })

  test("a file that held only the block is removed at uninstall", () => {
    const edit = blockEdit("/p/AGENTS.md", "use memledger")
    const created = Either.getOrThrow(edit.install(null))
    expect(Either.getOrThrow(edit.uninstall(created))).toBeNull()
    expect(Either.getOrThrow(edit.uninstall(AGENTS))).toBe(AGENTS)
  })
})

describe("owned files", () => {
  const content = `---\ndescription: x\n---\n${OWNED_MARK}: written by memledger -->\nbody\n`
  const edit = ownedFileEdit("/h/.claude/commands/recall.md", content)

  test("are created, kept when current, and updated when memledger wrote an older version", () => {
    expect(Either.getOrThrow(edit.install(null))).toBe(content)
    expect(Either.getOrThrow(edit.install(content))).toBe(content)
    expect(Either.getOrThrow(edit.install(`${OWNED_MARK}: old -->\nold body\n`))).toBe(content)
  })

  test("a user's own file at the same path is refused at install and left alone at uninstall", () => {
    const theirs = "My own /recall command\n"
    const refused = edit.install(theirs)
    expect(Either.isLeft(refused) && refused.left._tag).toBe("ForeignFile")
    expect(Either.getOrThrow(edit.uninstall(theirs))).toBe(theirs)
    expect(Either.getOrThrow(edit.uninstall(content))).toBeNull()
  })
})
