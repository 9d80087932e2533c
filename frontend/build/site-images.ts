/**
 * The PNGs link previews and home screens need, rendered from the SVGs in frontend/public by
 * resvg-js (prebuilt binaries from npm: no Chromium, no native toolchain). Text in the SVGs is
 * drawn with the machine's fonts (any serif or sans-serif will do; `systemFontsFound` says
 * whether there is one).
 */

import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';

const renderOptions = (width: number): ResvgRenderOptions => ({
  fitTo: { mode: 'width', value: width },
  font: { loadSystemFonts: true, defaultFontFamily: 'serif' },
});

/** An SVG rendered to a PNG exactly `width` wide (its height follows from the SVG's aspect). */
export function renderPng(svg: string, width: number): Buffer {
  return Buffer.from(new Resvg(svg, renderOptions(width)).render().asPng());
}

/** Whether resvg finds a font to draw text with: without one, the images lose their lettering. */
export function systemFontsFound(): boolean {
  const probe = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><text x="2" y="16">Ag</text></svg>';
  const { pixels } = new Resvg(probe, renderOptions(40)).render();
  return pixels.some((value) => value !== 0);
}

/**
 * An SVG's content placed in a box of another SVG, as a nested `<svg>`: resvg draws an SVG given
 * as an `<image>` without fonts, so the cover is inlined instead. Its own viewBox keeps its
 * layout; its ids are prefixed so they cannot clash with the outer drawing's.
 */
export function nestedSvg(svg: string, box: { x: number; y: number; width: number; height: number }): string {
  const root = /<svg\b[^>]*>/.exec(svg);
  const end = svg.lastIndexOf('</svg>');
  if (!root || end < root.index) throw new Error('Not an SVG document');
  const viewBox = /\bviewBox="([^"]+)"/.exec(root[0])?.[1];
  if (!viewBox) throw new Error('The SVG has no viewBox to scale it by');
  const content = svg
    .slice(root.index + root[0].length, end)
    .replace(/\bid="([^"]+)"/g, 'id="nested-$1"')
    .replace(/url\(#([^)]+)\)/g, 'url(#nested-$1)')
    .replace(/href="#([^"]+)"/g, 'href="#nested-$1"');
  return `<svg x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" viewBox="${viewBox}">${content}</svg>`;
}

/**
 * The Open Graph image: the cover on the site's navy with a gold rule, `width` x `height`
 * (1200 x 630, the size every network shows uncropped).
 */
export function openGraphSvg(coverSvg: string, width: number, height: number): string {
  const coverHeight = Math.round(height * 0.86);
  const coverWidth = Math.round((coverHeight * 2) / 3);
  const x = Math.round((width - coverWidth) / 2);
  const y = Math.round((height - coverHeight) / 2);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    '<defs><linearGradient id="background" x1="0" y1="0" x2="1" y2="1">',
    '<stop offset="0" stop-color="#163a5f"/><stop offset="1" stop-color="#0a1d30"/>',
    '</linearGradient>',
    '<filter id="shadow" x="-20%" y="-20%" width="140%" height="140%">',
    '<feDropShadow dx="0" dy="10" stdDeviation="14" flood-color="#000000" flood-opacity="0.5"/>',
    '</filter></defs>',
    `<rect width="${width}" height="${height}" fill="url(#background)"/>`,
    `<rect x="0" y="${height - 12}" width="${width}" height="12" fill="#e0a82e"/>`,
    `<rect x="${x}" y="${y}" width="${coverWidth}" height="${coverHeight}" fill="#0a1d30" filter="url(#shadow)"/>`,
    nestedSvg(coverSvg, { x, y, width: coverWidth, height: coverHeight }),
    '</svg>',
  ].join('');
}

/**
 * A home-screen icon from the favicon: square and opaque (iOS paints transparent corners black
 * and rounds the corners itself), the favicon filling it.
 */
export function homeScreenIconSvg(faviconSvg: string, size: number, background: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">`,
    `<rect width="${size}" height="${size}" fill="${background}"/>`,
    nestedSvg(faviconSvg, { x: 0, y: 0, width: size, height: size }),
    '</svg>',
  ].join('');
}
