/** A unified diff of two texts, for --dry-run: what install or uninstall would change in a file. */

interface Op {
  readonly kind: " " | "-" | "+"
  readonly text: string
}

/** Lines past which the middle of two texts is shown as removed then added, not aligned (settings files are small). */
const ALIGN_LIMIT = 2_000

export const unifiedDiff = (names: { readonly before: string; readonly after: string }, before: string, after: string, context = 3): string => {
  const ops = lineOps(splitLines(before), splitLines(after))
  const lines = [`--- ${names.before}`, `+++ ${names.after}`]
  let oldLine = 1
  let newLine = 1
  let i = 0
  while (i < ops.length) {
    if (ops[i]!.kind === " ") {
      oldLine++
      newLine++
      i++
      continue
    }
    // A hunk: `context` lines before the change, through the last change followed by fewer than 2 x context equal lines.
    const start = Math.max(0, i - context)
    let end = i
    while (end < ops.length) {
      if (ops[end]!.kind !== " ") {
        end++
        continue
      }
      let equal = 0
      while (end + equal < ops.length && ops[end + equal]!.kind === " ") equal++
      if (end + equal === ops.length || equal > 2 * context) {
        end = Math.min(ops.length, end + context)
        break
      }
      end += equal
    }
    const hunk = ops.slice(start, end)
    const oldStart = oldLine - (i - start)
    const newStart = newLine - (i - start)
    const oldCount = hunk.filter((op) => op.kind !== "+").length
    const newCount = hunk.filter((op) => op.kind !== "-").length
    // As diff(1) writes it: an empty side starts at the line before.
    const range = (start: number, count: number) => `${count === 0 ? start - 1 : start},${count}`
    lines.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`, ...hunk.map((op) => `${op.kind}${op.text}`))
    oldLine = oldStart + oldCount
    newLine = newStart + newCount
    i = end
  }
  return lines.join("\n")
}

const splitLines = (text: string): ReadonlyArray<string> => (text === "" ? [] : text.replace(/\r?\n$/, "").split(/\r?\n/))

const lineOps = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): ReadonlyArray<Op> => {
  let prefix = 0
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++
  let suffix = 0
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++
  const same = (lines: ReadonlyArray<string>): Array<Op> => lines.map((text) => ({ kind: " ", text }))
  return [
    ...same(a.slice(0, prefix)),
    ...alignMiddle(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix)),
    ...same(a.slice(a.length - suffix))
  ]
}

/** Longest common subsequence of the lines that differ, so a change inside a block shows as that change. */
const alignMiddle = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): ReadonlyArray<Op> => {
  if (a.length > ALIGN_LIMIT || b.length > ALIGN_LIMIT) {
    return [...a.map((text): Op => ({ kind: "-", text })), ...b.map((text): Op => ({ kind: "+", text }))]
  }
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1))
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!)
    }
  }
  const ops: Array<Op> = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: " ", text: a[i]! })
      i++
      j++
    } else if (i < a.length && (j === b.length || lengths[i + 1]![j]! >= lengths[i]![j + 1]!)) {
      ops.push({ kind: "-", text: a[i]! })
      i++
    } else {
      ops.push({ kind: "+", text: b[j]! })
      j++
    }
  }
  return ops
}
