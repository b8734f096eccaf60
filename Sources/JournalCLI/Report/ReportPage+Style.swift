extension ReportPage {
  /// The page's stylesheet: system fonts, light and dark colours (`prefers-color-scheme`),
  /// one column on a phone (≈ 390 px) widening on a desktop, and a print layout without the
  /// navigation, with figures kept whole.
  static let style = """
    :root {
      color-scheme: light dark;
      --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa;
      --accent: #0969da; --accent2: #bc4c00; --pr: #cf222e; --dev: #9a6700; --devbg: #fff8c5;
      --l0: #eff2f5; --l1: #aceebb; --l2: #4ac26b; --l3: #2da44e; --l4: #116329;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #151b23;
        --accent: #4493f8; --accent2: #f0883e; --pr: #ff7b72; --dev: #d29922; --devbg: #2e2a1a;
        --l0: #21262d; --l1: #033a16; --l2: #196c2e; --l3: #2ea043; --l4: #56d364;
      }
    }
    * { box-sizing: border-box; }
    body {
      margin: 0 auto; max-width: 1100px; padding: 0 16px 32px; background: var(--bg);
      color: var(--fg); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
    }
    h1 { font-size: 1.6rem; margin: 20px 0 0; }
    h2 { font-size: 1.3rem; margin: 32px 0 12px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
    h3 { font-size: 1.05rem; margin: 20px 0 8px; }
    a { color: var(--accent); }
    .range, .meta, .note, .legend, footer { color: var(--muted); }
    nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 0; margin: 8px 0; }
    .stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px; margin: 0 0 16px; }
    .stats div { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; }
    .stats dt { color: var(--muted); font-size: .85rem; }
    .stats dd { margin: 0; font-size: 1.25rem; font-weight: 600; font-variant-numeric: tabular-nums; }
    figure { margin: 0 0 20px; }
    figcaption { font-weight: 600; margin-bottom: 6px; }
    svg.chart { display: block; width: 100%; height: auto; max-width: 640px; font-size: 12px; font-family: inherit; }
    svg.bars, svg.progression { font-size: 14px; }
    svg.calendar { width: auto; max-width: 100%; margin-bottom: 6px; font-size: 11px; }
    .axis { fill: var(--muted); }
    .axisline { stroke: var(--muted); }
    .grid { stroke: var(--line); }
    .bar { fill: var(--accent); }
    .l0 { fill: var(--l0); background: var(--l0); } .l1 { fill: var(--l1); background: var(--l1); }
    .l2 { fill: var(--l2); background: var(--l2); } .l3 { fill: var(--l3); background: var(--l3); }
    .l4 { fill: var(--l4); background: var(--l4); }
    .swatch { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin: 0 1px; vertical-align: middle; }
    polyline { fill: none; stroke-width: 2; }
    polyline.top { stroke: var(--accent); }
    polyline.e1rm { stroke: var(--accent2); stroke-dasharray: 5 3; }
    circle.top { fill: var(--accent); stroke: var(--accent); stroke-width: 1.5; }
    circle.hollow { fill: var(--bg); }
    .pr { fill: var(--pr); font-weight: 700; font-size: 10px; }
    .key { display: inline-block; width: 18px; height: 0; border-top: 2px solid var(--accent); margin: 0 4px 0 8px; vertical-align: middle; }
    .key.e1rm { border-top: 2px dashed var(--accent2); }
    .key.hollow { width: 9px; height: 9px; border: 1.5px solid var(--accent); border-radius: 50%; background: var(--bg); }
    .prkey { color: var(--pr); margin-left: 8px; }
    .scroll { overflow-x: auto; }
    table { border-collapse: collapse; margin: 4px 0 12px; font-variant-numeric: tabular-nums; min-width: 60%; }
    caption { text-align: left; color: var(--muted); font-size: .85rem; padding-bottom: 2px; }
    th, td { text-align: left; padding: 3px 10px 3px 0; border-bottom: 1px solid var(--line); vertical-align: top; }
    th { font-weight: 600; }
    .num { text-align: right; }
    details.data summary { cursor: pointer; color: var(--accent); font-size: .9rem; }
    .set { white-space: nowrap; }
    .dev { background: var(--devbg); color: var(--dev); border-radius: 3px; padding: 0 2px; }
    .planfill { font-style: italic; color: var(--muted); }
    article ~ article { border-top: 1px solid var(--line); }
    footer { margin-top: 32px; font-size: .85rem; }
    @media (min-width: 900px) {
      article.exercise { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); column-gap: 24px; }
      article.exercise h3 { grid-column: 1 / -1; }
    }
    @media (max-width: 480px) {
      body { padding: 0 10px 24px; font-size: 14px; }
      th, td { padding-right: 6px; }
      table { min-width: 100%; }
    }
    @media print {
      :root { --bg: #ffffff; --fg: #000000; --muted: #444444; --panel: #ffffff; }
      body { max-width: none; padding: 0; font-size: 11pt; }
      nav, details.data summary { display: none; }
      section { break-before: page; }
      section#overview { break-before: auto; }
      figure, article, tr { break-inside: avoid; }
      a { color: inherit; text-decoration: none; }
    }

    """
}
