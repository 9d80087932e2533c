/**
 * The book's look, shared by the PDF and the e-mail: the site's colours (frontend/src/styles.css
 * holds the same values as CSS variables; a test keeps them equal) and its one font family.
 */

export const brandColours = {
  navy: '#0f2a44',
  gold: '#e0a82e',
  ink: '#1c2430',
  muted: '#4a5563',
  tint: '#f4f6f9',
  line: '#d9dee5',
  money: '#1b7044',
  people: '#1f5fa8',
  capacity: '#a34a0a',
} as const;

/** The three areas' colours, by area. */
export const areaColours = {
  Money: brandColours.money,
  People: brandColours.people,
  Capacity: brandColours.capacity,
} as const;

/** The page's font family, then fallbacks every mail client has (an e-mail cannot load a font file). */
export const fontStack = "'Source Sans 3', 'Source Sans Pro', 'Segoe UI', Helvetica, Arial, sans-serif";

/** The font files the PDF embeds: Source Sans 3's Latin subset, static weights (fontkit reads WOFF, not WOFF2). */
export const documentFontFiles = {
  regular: '@fontsource/source-sans-3/files/source-sans-3-latin-400-normal.woff',
  semibold: '@fontsource/source-sans-3/files/source-sans-3-latin-600-normal.woff',
  bold: '@fontsource/source-sans-3/files/source-sans-3-latin-700-normal.woff',
} as const;

export type DocumentFonts = Readonly<Record<keyof typeof documentFontFiles, Uint8Array>>;
