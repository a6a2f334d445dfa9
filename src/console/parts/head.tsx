/** A table's header row, one column heading each (a `{ hidden }` one is for screen readers only). */
export const Head = ({ columns }: { columns: ReadonlyArray<string | { readonly hidden: string }> }) => (
  <thead>
    <tr>
      {columns.map((c) =>
        typeof c === "string" ? (
          <th scope="col" key={c}>{c}</th>
        ) : (
          <th scope="col" key={c.hidden}>
            <span class="visually-hidden">{c.hidden}</span>
          </th>
        )
      )}
    </tr>
  </thead>
)
