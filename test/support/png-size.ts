/** A PNG's size as any reader sees it: the width and height of its IHDR chunk, which the format puts first. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((byte, index) => png[index] === byte)) throw new Error('Not a PNG');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunkType = String.fromCharCode(...png.subarray(12, 16));
  if (chunkType !== 'IHDR') throw new Error(`The PNG's first chunk is ${chunkType}, not IHDR`);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
