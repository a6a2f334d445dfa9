/** How a program opens its store: commands that only read must not create one. */
export interface StoreOpening {
  /** Unless false, a missing store is created; if false, opening it is StoreNotFound. */
  readonly create?: boolean
}
