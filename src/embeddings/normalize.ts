/** Vector helpers shared by the providers: every vector an Embedder returns is L2-normalised. */

/** A unit-length copy of `values`; an all-zero (or non-finite) vector stays all zeros. */
export const l2Normalize = (values: ArrayLike<number>): Float32Array => {
  const out = Float32Array.from(values)
  let sum = 0
  for (let i = 0; i < out.length; i++) sum += out[i]! * out[i]!
  const norm = Math.sqrt(sum)
  if (!Number.isFinite(norm) || norm === 0) return out.fill(0)
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm
  return out
}

/** Cosine similarity of two vectors of the same length (1 - cosine distance). */
export const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb)
}

/** Splits `items` into consecutive chunks of at most `size`. */
export const chunks = <A>(items: ReadonlyArray<A>, size: number): A[][] => {
  const out: A[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
