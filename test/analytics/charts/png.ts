/**
 * A small PNG decoder for tests (8-bit RGB/RGBA, non-interlaced: what resvg writes): size and pixels, so a
 * test can check that a chart is the right size and not blank. Written from the PNG spec (RFC 2083 §6:
 * filters None, Sub, Up, Average, Paeth).
 */
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  channels: number;
  pixels: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function decodePng(buf: Buffer): DecodedPng {
  assert.ok(buf.subarray(0, 8).equals(SIGNATURE), 'PNG signature');
  let off = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.equal(data[8], 8, 'bit depth 8');
      channels = ({ 2: 3, 6: 4 } as Record<number, number>)[data[9]!] ?? 0;
      assert.ok(channels > 0, `colour type ${data[9]}`);
      assert.equal(data[12], 0, 'not interlaced');
    }
    if (type === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x]!;
      const a = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0;
      let pred = 0;
      if (filter === 1) pred = a;
      else if (filter === 2) pred = b;
      else if (filter === 3) pred = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[y * stride + x] = (v + pred) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** Share of pixels that are not (near) white. */
export function inkShare(img: DecodedPng): number {
  let ink = 0;
  for (let i = 0; i < img.width * img.height; i++) {
    const o = i * img.channels;
    if (img.pixels[o]! < 230 || img.pixels[o + 1]! < 230 || img.pixels[o + 2]! < 230) ink++;
  }
  return ink / (img.width * img.height);
}

/** Distinct colours (RGB) in the image. */
export function colourCount(img: DecodedPng): number {
  const seen = new Set<number>();
  for (let i = 0; i < img.width * img.height; i++) {
    const o = i * img.channels;
    seen.add((img.pixels[o]! << 16) | (img.pixels[o + 1]! << 8) | img.pixels[o + 2]!);
  }
  return seen.size;
}

/** The SVG's declared size in SVG units (vega writes width/height attributes on the root). */
export function svgSize(svg: string): { width: number; height: number } {
  const m = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(svg);
  assert.ok(m, 'svg has width and height');
  return { width: Number(m[1]), height: Number(m[2]) };
}
