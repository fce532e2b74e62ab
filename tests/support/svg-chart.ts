/**
 * Reads the series a chart of shared/presentation/charts draws, from its SVG text: every stroked <path>
 * (its colour, whether dashed, its subpaths as vertex lists) and the point markers (<circle>) by colour.
 * The unit tests read the chart as rendered text, the browser test the same document as served.
 */
export interface Vertex {
  x: number;
  y: number;
}

export interface DrawnLine {
  colour: string;
  dashed: boolean;
  /** One list of vertices per subpath (each `M` opens one). */
  subpaths: Vertex[][];
  d: string;
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** The plot's translate(left,top) group: markers and paths are drawn in its coordinates. */
export function plotOrigin(svg: string): Vertex {
  const m = /<g transform="translate\(([\d.]+),([\d.]+)\)">/.exec(svg);
  if (!m) throw new Error('no plot group in the chart');
  return { x: Number(m[1]), y: Number(m[2]) };
}

/** Every <path> of the chart: the lines of its series (the only paths it draws). */
export function drawnLines(svg: string): DrawnLine[] {
  return [...svg.matchAll(/<path\b[^>]*>/g)].map(([tag]) => {
    const d = attr(tag, 'd') ?? '';
    const subpaths = d
      .split('M')
      .filter(Boolean)
      .map((sub) => [...sub.replace(/Z$/, '').matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map(([, x, y]) => ({ x: Number(x), y: Number(y) })));
    return { colour: attr(tag, 'stroke') ?? '', dashed: attr(tag, 'stroke-dasharray') !== undefined, subpaths, d };
  });
}

/** The point markers of one colour, left to right as drawn. */
export function markers(svg: string, colour: string): Vertex[] {
  return [...svg.matchAll(/<circle\b[^>]*>/g)]
    .map(([tag]) => tag)
    .filter((tag) => attr(tag, 'fill') === colour)
    .map((tag) => ({ x: Number(attr(tag, 'cx')), y: Number(attr(tag, 'cy')) }));
}
