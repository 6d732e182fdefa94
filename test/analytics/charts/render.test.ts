import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderPostCharts } from '../../../src/analytics/charts/attach.js';
import { chartFontFiles } from '../../../src/analytics/charts/font.js';
import { renderChart } from '../../../src/analytics/charts/request.js';
import { preferenceChart } from '../../../src/analytics/charts/requests.js';
import { standingsChart } from '../../../src/present/charts.js';
import { sampleCharts, sampleMatch } from '../../../src/analytics/charts/samples.js';
import { colourCount, decodePng, inkShare, svgSize } from './png.js';

describe('charts render to PNG in-process', () => {
  test('every chart kind renders with no system fonts: right size, not blank, text in the SVG', async () => {
    // render.ts runs resvg with loadSystemFonts: false and only the TTFs of the dejavu-fonts-ttf package.
    assert.ok(
      chartFontFiles().every((f) => f.includes('dejavu-fonts-ttf')),
      'fonts come from the npm package',
    );
    const kinds = new Set<string>();
    for (const req of sampleCharts()) {
      const out = await renderChart(req);
      kinds.add(req.kind);
      const png = decodePng(out.png);
      const size = svgSize(out.svg);
      assert.equal(png.width, Math.round(size.width * 2), `${req.kind}: width = 2 × SVG width`);
      assert.equal(png.height, Math.round(size.height * 2), `${req.kind}: height = 2 × SVG height`);
      assert.ok(inkShare(png) > 0.02, `${req.kind}: ink on ${(inkShare(png) * 100).toFixed(1)} % of pixels`);
      assert.ok(colourCount(png) > 20, `${req.kind}: ${colourCount(png)} colours (text antialiasing, marks)`);
      assert.ok(
        out.svg.includes(req.title.replace(/&/g, '&amp;').replace(/'/g, '&#039;')) ||
          out.svg.includes(req.title.split(' ')[0]!),
        `${req.kind}: title text in the SVG`,
      );
    }
    assert.deepEqual([...kinds].sort(), ['breakdown', 'eval', 'preference', 'ratings', 'standings']);
  });

  test("the standings chart's SVG names every seat", async () => {
    const m = sampleMatch('market_round', 3);
    const out = await renderChart(standingsChart(m));
    for (const lab of m.state!.labIds) assert.match(out.svg, new RegExp(m.state!.labs[lab]!.publicName), lab);
    assert.match(out.svg, /Ada/);
  });

  test('text renders as glyph paths from the packaged font (more ink with text than without)', async () => {
    const withText = decodePng(
      (await renderChart(preferenceChart({ agreement: 0.7, kappa: 0.4 }, 'A title with several words in it'))).png,
    );
    const shorter = decodePng((await renderChart(preferenceChart({ agreement: 0.7, kappa: 0.4 }, '.'))).png);
    assert.ok(inkShare(withText) > inkShare(shorter), 'a longer title draws more ink: the font is loaded');
  });

  test('a chart that fails is left out and logged; the others render', async () => {
    const warnings: unknown[] = [];
    const files = await renderPostCharts(
      { charts: [{ kind: 'standings', title: 'bad', rows: [{ round: 'x' }] }, preferenceChart({ agreement: 0.5 })] },
      { warn: (o: unknown) => void warnings.push(o) } as never,
    );
    assert.deepEqual(
      files.map((f) => f.name),
      ['preference.png'],
    );
    assert.equal(warnings.length, 1);
  });
});
