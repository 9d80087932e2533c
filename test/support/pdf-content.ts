/**
 * Reads the text a PDF made by pdf-lib shows, without a PDF library that can extract text:
 * inflate each Flate-compressed content stream and decode the hex strings of its `Tj` text
 * operators from WinAnsi, the standard fonts' encoding. Each `Tj` is one line
 * as drawn, so a string found whole in one line was drawn whole, as selectable text.
 */

import { inflateSync } from 'node:zlib';

// WinAnsi is Latin-1 except for 0x80–0x9F. (Node's TextDecoder decodes 'windows-1252' as plain
// Latin-1, so those bytes would come out as control characters.)
const winAnsiHighBytes: Readonly<Record<number, string>> = {
  0x80: '€',
  0x82: '‚',
  0x83: 'ƒ',
  0x84: '„',
  0x85: '…',
  0x86: '†',
  0x87: '‡',
  0x88: 'ˆ',
  0x89: '‰',
  0x8a: 'Š',
  0x8b: '‹',
  0x8c: 'Œ',
  0x8e: 'Ž',
  0x91: '‘',
  0x92: '’',
  0x93: '“',
  0x94: '”',
  0x95: '•',
  0x96: '–',
  0x97: '—',
  0x98: '˜',
  0x99: '™',
  0x9a: 'š',
  0x9b: '›',
  0x9c: 'œ',
  0x9e: 'ž',
  0x9f: 'Ÿ',
};

function decodeWinAnsi(bytes: Buffer): string {
  return Array.from(bytes, (byte) => winAnsiHighBytes[byte] ?? String.fromCharCode(byte)).join('');
}

/** The decompressed content streams (pages' drawing operators). */
export function contentStreams(pdf: Uint8Array): string[] {
  const source = Buffer.from(pdf).toString('latin1');
  const streams: string[] = [];
  const streamPattern = /<<((?:(?!>>\s*stream)[\s\S])*)>>\s*stream\r?\n/g;
  for (let match = streamPattern.exec(source); match; match = streamPattern.exec(source)) {
    const dictionary = match[1]!;
    const length = Number(/\/Length (\d+)/.exec(dictionary)?.[1]);
    const start = match.index + match[0].length;
    const data = Buffer.from(pdf).subarray(start, start + length);
    if (/\/FlateDecode/.test(dictionary)) {
      try {
        streams.push(inflateSync(data).toString('latin1'));
      } catch {
        // Not a content stream we can read (e.g. an embedded font): not text we draw.
      }
    } else if (!/\/Subtype/.test(dictionary)) {
      streams.push(data.toString('latin1'));
    }
  }
  return streams;
}

/** Every string the PDF draws with `Tj`, in drawing order. */
export function drawnTextLines(pdf: Uint8Array): string[] {
  const lines: string[] = [];
  for (const stream of contentStreams(pdf)) {
    for (const [, hex] of stream.matchAll(/<([0-9A-Fa-f\s]*)>\s*Tj/g)) {
      lines.push(decodeWinAnsi(Buffer.from(hex!.replace(/\s+/g, ''), 'hex')));
    }
  }
  return lines;
}
