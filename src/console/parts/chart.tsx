/**
 * A time-series chart drawn by uPlot on a canvas, sized to its box and redrawn when the box or the
 * colour scheme changes. Colours come from the page's CSS variables, so the chart follows the
 * light or dark theme. A canvas says nothing to a screen reader: each chart has a label, and the
 * pages list the same numbers as text beside it.
 */
import { useEffect, useRef } from "preact/hooks"
import uPlot from "uplot"

export interface ChartSeries {
  readonly label: string
  /** A CSS variable holding the colour, e.g. "--worked". */
  readonly color: string
  readonly values: ReadonlyArray<number | null>
  readonly scale?: string
  readonly bars?: boolean
  readonly dash?: ReadonlyArray<number>
}

export interface ChartProps {
  readonly label: string
  /** Unix seconds. */
  readonly x: ReadonlyArray<number>
  readonly series: ReadonlyArray<ChartSeries>
  readonly height?: number
  /** A second y scale on the right, e.g. the outcome score from -1 to 1. */
  readonly right?: { readonly scale: string; readonly range: readonly [number, number]; readonly label: string }
}

export const Chart = ({ label, x, series, height = 220, right }: ChartProps) => {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current
    if (el === null) return
    let plot: uPlot | undefined
    const draw = () => {
      plot?.destroy()
      const css = getComputedStyle(document.documentElement)
      const color = (name: string) => css.getPropertyValue(name).trim() || "#888"
      const axis = { stroke: color("--muted"), grid: { stroke: color("--grid"), width: 1 }, ticks: { stroke: color("--grid") } }
      plot = new uPlot(
        {
          width: Math.max(240, el.clientWidth),
          height,
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: true }, ...(right === undefined ? {} : { [right.scale]: { range: [right.range[0], right.range[1]] } }) },
          axes: [axis, { ...axis, size: 48 }, ...(right === undefined ? [] : [{ ...axis, scale: right.scale, side: 1, label: right.label, grid: { show: false } }])],
          series: [
            {},
            ...series.map((s) => ({
              label: s.label,
              stroke: color(s.color),
              width: 2,
              points: { show: false },
              ...(s.scale === undefined ? {} : { scale: s.scale }),
              ...(s.dash === undefined ? {} : { dash: [...s.dash] }),
              ...(s.bars === true ? { fill: color(s.color), paths: uPlot.paths.bars!({ size: [0.7, 24] }), points: { show: false } } : {})
            }))
          ]
        },
        [x as number[], ...series.map((s) => s.values as Array<number | null>)],
        el
      )
    }
    draw()
    const resized = new ResizeObserver(() => plot?.setSize({ width: Math.max(240, el.clientWidth), height }))
    resized.observe(el)
    const scheme = window.matchMedia("(prefers-color-scheme: dark)")
    scheme.addEventListener("change", draw)
    return () => {
      resized.disconnect()
      scheme.removeEventListener("change", draw)
      plot?.destroy()
    }
  }, [x, series, height, right])
  return <div class="chart" ref={box} role="img" aria-label={label} />
}

/** The swatches that say which colour is which series. */
export const Legend = ({ items }: { items: ReadonlyArray<{ label: string; className: string }> }) => (
  <ul class="legend">
    {items.map((item) => (
      <li key={item.label}>
        <span class={`swatch ${item.className}`} aria-hidden="true" />
        {item.label}
      </li>
    ))}
  </ul>
)
