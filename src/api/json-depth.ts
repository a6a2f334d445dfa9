/**
 * How deeply a parsed JSON value nests. No input of memledger nests more than three levels
 * (a field holding a list of tags or ids), but the parser accepts any depth, and the schema
 * decoders and error formatters that read a value recurse: 5,000 nested arrays would overflow
 * the stack of whichever touched them first. So every edge that parses JSON refuses values
 * nested deeper than `MAX_INPUT_DEPTH` before decoding them, with a plain error.
 */

/** Generous for any real input, far below what a recursion could overflow on. */
export const MAX_INPUT_DEPTH = 32

/** True when `value` holds arrays or objects nested more than `max` deep. Iterative, so any depth is safe to ask about. */
export const nestsDeeperThan = (value: unknown, max: number = MAX_INPUT_DEPTH): boolean => {
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (typeof current !== "object" || current === null) continue
    if (depth >= max) return true
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1])
  }
  return false
}

export const TOO_DEEP_MESSAGE = `the input nests arrays or objects more than ${MAX_INPUT_DEPTH} levels deep; no field of memledger's inputs nests more than three`
