/**
 * What makes two texts "the same thing said again" (brief 4.5): equal after folding case,
 * collapsing white space and dropping end punctuation.
 */
import { createHash } from "node:crypto"

export const normaliseForRestatement = (content: string): string =>
  content
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s.!?;:,…]+$/u, "")

/** A fixed-size key for the restatement index: a hash of the normalised text. */
export const restatementKey = (content: string): string =>
  createHash("sha256").update(normaliseForRestatement(content)).digest("hex").slice(0, 32)
