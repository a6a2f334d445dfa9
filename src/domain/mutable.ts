/**
 * A readonly record type with its fields writable: for building one in place, field by field,
 * where a spread of temporary objects would make garbage on a hot path (an import's lines).
 */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] }
